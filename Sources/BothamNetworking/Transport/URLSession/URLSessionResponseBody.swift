import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The response of one ``URLSessionTransfer``'s current hop and the body received for it: in memory, or written as
/// it arrives to the body file, within its size limit (`maxResponseBytes`, or `maxFileResponseBytes` for a file). A
/// streamed body passes through ``URLSessionBodyStreamer`` instead, once its head has gone to the caller.
struct URLSessionResponseBody {
    /// Where the body is written, or `nil` to keep it in memory.
    let fileURL: URL?
    /// The largest body accepted, in bytes (`nil`: no limit).
    let limit: Int?
    /// The response the body belongs to, once its head arrived.
    private(set) var response: HTTPURLResponse?
    /// The body, when it stays in memory: the bytes received so far.
    var data: Data {
        guard let pooled else { return appended }
        return received == pooled.data.count ? pooled.data : pooled.data.prefix(Int(received))
    }
    /// The body received so far when it is not ``pooled``.
    private var appended = Data()
    /// Memory of the announced size for a large body that is not content-coded, written in place
    /// (`BodyBufferPool`): a fresh allocation of that size costs page faults on every response.
    private var pooled: BodyBufferPool.Body?
    /// Body bytes received for ``response`` (in ``data`` or in the file).
    private(set) var received: Int64 = 0
    /// The open body file.
    private var file: FileHandle?

    /// Where a large in-memory body of announced length gets its memory.
    private let pool: BodyBufferPool
    /// Whether the request is a HEAD: its response announces a length but brings no body.
    private let isHeadRequest: Bool

    init(fileURL: URL?, limit: Int?, isHeadRequest: Bool = false, pool: BodyBufferPool = .shared) {
        self.fileURL = fileURL
        self.limit = limit
        self.isHeadRequest = isHeadRequest
        self.pool = pool
    }

    /// A new response starts: its body replaces any before. Checks the announced size against the limit and
    /// prepares the storage (not for a streamed body, which is not stored); the error when that fails.
    mutating func start(_ response: HTTPURLResponse, streamed: Bool) -> APIClientError? {
        self.response = response
        appended = Data()
        pooled = nil
        received = 0
        guard !streamed else { return nil }
        let expected = response.expectedContentLength
        if let limit, expected > limit, response.value(forHTTPHeaderField: "Content-Encoding") == nil {
            return .networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))
        }
        if let fileURL { return openFile(at: fileURL) }
        guard expected > 0 else { return nil }
        let capacity = Int(min(expected, Int64(limit ?? 64 << 20)))
        if capacity == expected, !isHeadRequest, response.statusCode != 204, response.statusCode != 304,
            response.value(forHTTPHeaderField: "Content-Encoding") == nil
        {
            pooled = pool.body(count: capacity)
        }
        if pooled == nil { appended.reserveCapacity(capacity) }
        return nil
    }

    /// The response a data task did not report (the head of a 3xx it does not follow), if none arrived.
    mutating func adopt(_ response: HTTPURLResponse?) {
        if self.response == nil { self.response = response }
    }

    /// Whether `count` more bytes stay within the limit.
    func admits(_ count: Int) -> Bool {
        guard let limit else { return true }
        return received + Int64(count) <= limit
    }

    /// Appends body bytes (checked with ``admits(_:)`` first); the error when they cannot be written.
    mutating func append(_ chunk: Data) -> APIClientError? {
        if let file {
            do {
                try file.write(contentsOf: chunk)
            } catch {
                let url = fileURL ?? URL(fileURLWithPath: "/")
                return .downloadDestinationError(
                    ResponseBodyDestination.Failure(kind: .cannotWrite, url: url, reason: "\(error)"))
            }
        } else if let pooled, Int(received) + chunk.count <= pooled.data.count {
            chunk.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress else { return }
                (pooled.bytes + Int(received)).copyMemory(from: start, byteCount: bytes.count)
            }
        } else {
            if pooled != nil {
                // More than announced (URLSession decoded a body it did not say was coded): keep what came, append.
                appended = data.withUnsafeBytes { Data($0) }
                self.pooled = nil
            }
            appended.append(chunk)
        }
        received += Int64(chunk.count)
        return nil
    }

    /// Forgets the response and its body, for a request sent again.
    mutating func reset() {
        response = nil
        appended = Data()
        pooled = nil
        received = 0
    }

    /// Makes sure the body file exists (empty) for a response whose head never reached the delegate; the error when
    /// it cannot be created.
    func ensureFile() -> APIClientError? {
        guard let fileURL, file == nil else { return nil }
        guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
            return .downloadDestinationError(ResponseBodyDestination.Failure(kind: .cannotWrite, url: fileURL))
        }
        return nil
    }

    /// The call ended: the file is closed and nothing is kept in memory. A partial body file is left where it is:
    /// the client owns it (`DownloadFiles` removes it when the call ends), and a transport never deletes the file it
    /// was told to write.
    mutating func close() {
        reset()
        if let file {
            try? file.close()
            self.file = nil
        }
    }

    /// Creates the body file, or empties it for a new response; the error when that fails.
    private mutating func openFile(at url: URL) -> APIClientError? {
        do {
            if let file {
                try file.truncate(atOffset: 0)
                return nil
            }
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            file = try FileHandle(forWritingTo: url)
            return nil
        } catch {
            return .downloadDestinationError(
                ResponseBodyDestination.Failure(kind: .cannotWrite, url: url, reason: "\(error)"))
        }
    }
}
