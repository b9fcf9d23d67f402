import Foundation

/// A `multipart/form-data` body (RFC 7578) built from text fields and files, the way browsers send forms.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Jane", name: "user")
/// form.append(avatarPNG, name: "avatar", filename: "avatar.png", contentType: "image/png")
/// form.append(fileAt: videoURL, name: "video")                     // filename and type from the URL
/// let result = await apiClient.POST("/profile", body: .multipart(form))
/// ```
///
/// - Names and filenames are quoted, with `"`, CR and LF percent-encoded as the WHATWG HTML standard says
///   (`a"b` → `a%22b`); other characters, non-ASCII included, are sent as UTF-8. (RFC 7578 forbids `filename*`.)
/// - The boundary is random (128 bits) and checked: a part whose content holds `--boundary` is an error, never a
///   corrupt body.
/// - A body up to `inMemoryThreshold` bytes (10 MiB by default) is built in memory. A larger one is assembled in a
///   temporary file, copying files in fixed-size chunks so they never have to fit in memory; the resulting
///   ``HTTPBody`` refers to that file (``HTTPBody/fileURL``) and deletes it when the last copy of the body is gone.
public struct MultipartFormData: Sendable {
    /// Bodies up to this size (10 MiB) are built in memory by default; larger ones in a temporary file.
    package static let defaultInMemoryThreshold = 10 * 1024 * 1024

    /// The boundary between parts.
    package let boundary: String
    /// The parts, in order.
    package private(set) var parts: [MultipartFormData.Part] = []

    /// Creates an empty form with a random boundary, or with `boundary` (1 to 70 characters of RFC 2046's `bchars`;
    /// another is reported as ``APIClientError/invalidRequest(reason:)`` when the form is encoded).
    public init(boundary: String? = nil) {
        self.boundary = boundary ?? Self.randomBoundary()
    }

    /// A new random boundary: `botham.` followed by 32 hexadecimal digits.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return "botham." + String(repeating: "0", count: 16 - high.count) + high
            + String(repeating: "0", count: 16 - low.count) + low
    }

    /// The `Content-Type` of the body: `multipart/form-data; boundary=…`.
    package var contentType: String {
        let needsQuotes = boundary.contains { "()<>@,;:\\\"/[]?= ".contains($0) }
        return "multipart/form-data; boundary=" + (needsQuotes ? "\"\(boundary)\"" : boundary)
    }

    /// Appends a text field, sent as UTF-8 without a `Content-Type`.
    public mutating func append(_ value: String, name: String) {
        parts.append(
            MultipartFormData.Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8))))
    }

    /// Appends bytes: a file when `filename` is given (its `Content-Type` defaults to `application/octet-stream`),
    /// otherwise a field with `contentType` if one is given.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : MediaType.octetStream)
        parts.append(MultipartFormData.Part(name: name, filename: filename, contentType: type, content: .data(data)))
    }

    /// Appends the file at `url`, read when the body is encoded. `filename` defaults to the URL's last path
    /// component and `contentType` to a type guessed from its extension (`application/octet-stream` otherwise).
    public mutating func append(fileAt url: URL, name: String, filename: String? = nil, contentType: String? = nil) {
        let part = MultipartFormData.Part(
            name: name,
            filename: filename ?? url.lastPathComponent,
            contentType: contentType ?? MediaType.forPathExtension(url.pathExtension),
            content: .file(url)
        )
        parts.append(part)
    }

    /// The size of the encoded body in bytes (files are measured, not read).
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when a file cannot be read.
    package func contentLength() throws(APIClientError) -> Int {
        var total = closingDelimiter.count
        for part in parts {
            total += try header(for: part).count + 2
            switch part.content {
            case .data(let data): total += data.count
            case .file(let url): total += try FileBody.size(of: url)
            }
        }
        return total
    }

    /// The whole body in memory.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` for an invalid boundary or content type, a part that
    ///   holds the boundary, or a file that cannot be read.
    package func encoded() throws(APIClientError) -> Data {
        var output = Data()
        try write { output.append($0) }
        return output
    }

    /// The whole body written to a new file at `url`, copying files in chunks of `chunkSize` bytes.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` as ``encoded()`` does, or when the file cannot be
    ///   written (a partly written file is removed).
    package func write(to url: URL, chunkSize: Int = 256 * 1024) throws(APIClientError) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw .invalidRequest(reason: "cannot create the multipart body file \(DebugText.quoted(url.path))")
        }
        do {
            let handle = try Self.fileOperation(url) { try FileHandle(forWritingTo: url) }
            defer { try? handle.close() }
            try write(chunkSize: chunkSize) { data throws(APIClientError) in
                try Self.fileOperation(url) { try handle.write(contentsOf: data) }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// The body to send: in memory up to `inMemoryThreshold` bytes, otherwise in a temporary file in
    /// `temporaryDirectory` that is deleted when the body is no longer used. `Content-Type` is set to
    /// ``contentType`` unless the request has one.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` as ``write(to:chunkSize:)`` does.
    package func body(
        inMemoryThreshold: Int = 10 * 1024 * 1024,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) throws(APIClientError) -> HTTPBody {
        if try contentLength() <= inMemoryThreshold {
            return .data(try encoded(), contentType: contentType)
        }
        let url = temporaryDirectory.appendingPathComponent("botham-multipart-\(UUID().uuidString)")
        try write(to: url)
        return HTTPBody(storage: .file(url, contentType: contentType, temporary: TemporaryFile(url: url)))
    }

    private var delimiter: Data { Data("--\(boundary)".utf8) }
    private var closingDelimiter: Data { Data("--\(boundary)--\r\n".utf8) }

    /// The delimiter line and header lines before a part's content.
    private func header(for part: MultipartFormData.Part) throws(APIClientError) -> Data {
        var disposition = "form-data; name=\"\(Self.escaped(part.name))\""
        if let filename = part.filename { disposition += "; filename=\"\(Self.escaped(filename))\"" }
        var text = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let contentType = part.contentType {
            guard contentType.utf8.allSatisfy(HTTPToken.isFieldValueCharacter) else {
                throw .invalidRequest(
                    reason: "the content type of multipart part \(DebugText.quoted(part.name)) has control characters"
                )
            }
            text += "Content-Type: \(contentType)\r\n"
        }
        return Data((text + "\r\n").utf8)
    }

    private func write(
        chunkSize: Int = 256 * 1024,
        to sink: (Data) throws(APIClientError) -> Void
    ) throws(APIClientError) {
        try validateBoundary()
        let delimiter = self.delimiter
        for part in parts {
            try sink(try header(for: part))
            switch part.content {
            case .data(let data):
                if data.range(of: delimiter) != nil { throw boundaryCollision(part) }
                try sink(data)
            case .file(let url):
                try copy(url, chunkSize: max(delimiter.count, chunkSize), part: part, to: sink)
            }
            try sink(Data("\r\n".utf8))
        }
        try sink(closingDelimiter)
    }

    /// Copies a file in chunks, checking for the delimiter across chunk edges.
    private func copy(
        _ url: URL,
        chunkSize: Int,
        part: MultipartFormData.Part,
        to sink: (Data) throws(APIClientError) -> Void
    ) throws(APIClientError) {
        let delimiter = self.delimiter
        let handle = try Self.fileOperation(url) { try FileHandle(forReadingFrom: url) }
        defer { try? handle.close() }
        var tail = Data()
        while true {
            let chunk = try Self.fileOperation(url) { try handle.read(upToCount: chunkSize) } ?? Data()
            if chunk.isEmpty { return }
            let window = tail + chunk
            if window.range(of: delimiter) != nil { throw boundaryCollision(part) }
            tail = window.suffix(delimiter.count - 1)
            try sink(chunk)
        }
    }

    private func validateBoundary() throws(APIClientError) {
        let allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? "
        guard (1...70).contains(boundary.count), boundary.allSatisfy({ allowed.contains($0) }),
            boundary.last != " "
        else {
            throw .invalidRequest(
                reason: "the multipart boundary \(DebugText.quoted(boundary)) is not 1 to 70 RFC 2046 characters"
            )
        }
    }

    private func boundaryCollision(_ part: MultipartFormData.Part) -> APIClientError {
        .invalidRequest(
            reason: "multipart part \(DebugText.quoted(part.name)) contains the boundary; use another boundary"
        )
    }

    /// Percent-encodes `"`, CR and LF in a name or filename, as browsers do.
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "%22"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func fileOperation<Value>(_ url: URL, _ body: () throws -> Value) throws(APIClientError) -> Value {
        do {
            return try body()
        } catch {
            throw .invalidRequest(reason: "multipart file \(DebugText.quoted(url.path)) failed: \(error)")
        }
    }
}
