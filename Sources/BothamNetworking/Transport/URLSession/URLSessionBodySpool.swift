import Foundation

/// A streamed request body written to a temporary file for `URLSessionHTTPClient`, which then uploads it from the
/// file: FoundationNetworking cannot read a request body from a stream safely (its `InputStream` paths trap), and
/// a file keeps memory bounded whatever the size. The file is deleted when the last request that sends it is gone.
enum URLSessionBodySpool {
    /// `request` with its streamed body (if any) replaced by a temporary file holding the same bytes.
    static func spooling(_ request: HTTPRequest) async throws(APIClientError) -> HTTPRequest {
        guard let streamed = request.body?.streamed else { return request }
        let chunks = try streamed.makeChunks()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            ".botham-stream-\(UUID().uuidString)", isDirectory: false)
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw .invalidRequest(reason: "the streamed body cannot be spooled to \(DebugText.quoted(url.path))")
        }
        let temporary = TemporaryFile(url: url)
        defer { try? handle.close() }
        var written = 0
        while let chunk = try await chunks.next() {
            if Task.isCancelled { throw .cancelled }
            if let length = streamed.length, chunk.count > length - written {
                throw .invalidRequest(reason: "the streamed body is longer than its length of \(length) bytes")
            }
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw .invalidRequest(reason: "the streamed body cannot be spooled: \(error)")
            }
            written += chunk.count
        }
        if let length = streamed.length, written != length {
            throw .invalidRequest(reason: "the streamed body ended after \(written) of its \(length) bytes")
        }
        return request.withBody(HTTPBody(storage: .file(url, contentType: nil, temporary: temporary)))
    }
}
