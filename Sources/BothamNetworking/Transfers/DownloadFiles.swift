import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one owner of the response body files of a call with a file or folder ``ResponseBodyDestination``.
///
/// Ownership goes one way, and nothing else creates, moves or deletes these files:
/// 1. When an attempt has been prepared, ``writingBodyToPartFile(_:)`` checks the destination (its folder, an
///    existing file) and gives the attempt a fresh *part file* beside it (same folder, so the final move is a rename
///    on one file system). The request the attempt sends has `.file(partFile)` as its destination: that is where the
///    transport is told to write, and what the attempt's interceptors see.
/// 2. The transport writes the body into the part file (a transport that does not write files returns the body in
///    memory, and ``storingBody(of:sentWith:)`` writes it there). A transport never moves or deletes it.
/// 3. When the call ends, ``deliver(_:)`` moves the part file of the response the call succeeds with into the
///    destination, reads the body of a rejected response back into memory (small ones; or moves it into place with
///    ``ResponseBodyDestination/Options/keepFileWhenRejected``), and deletes every other part file. The response it returns names
///    where its body is now: ``HTTPResponse/bodyFileURL`` and `request.responseDestination` are the caller's.
///
/// A value owned by one call's retry loop, which runs its attempts one after another, so it needs no lock; a call
/// whose body stays in memory never appends to it and so allocates nothing for it.
struct DownloadFiles {
    /// The largest body of a rejected response that is read into memory before its file is deleted.
    static let rejectedBodyLimit = 1 << 20

    /// One attempt's part file and the destination it is delivered to.
    private struct Attempt {
        let destination: ResponseBodyDestination
        let partFile: URL
    }

    private var attempts: [Attempt] = []

    /// `request` (prepared) with its destination pointing at a new part file, once the destination was checked
    /// (folder, existing file) — nothing is sent when it fails; a request whose body stays in memory or is streamed
    /// as it is.
    mutating func writingBodyToPartFile(_ request: HTTPRequest) throws(APIClientError) -> HTTPRequest {
        let destination = request.responseDestination
        guard let folder = destination.folder else { return request }
        try Self.checkFolder(folder, options: destination.options)
        if case .file(let url, let options) = destination {
            try Self.checkNoFile(at: url, options: options)
        }
        let name = ".botham-download-\(UUID().uuidString).part"
        let partFile = folder.appendingPathComponent(name, isDirectory: false)
        attempts.append(Attempt(destination: destination, partFile: partFile))
        return request.withResponseDestination(.file(partFile, options: destination.options))
    }

    /// `response` with its body in the attempt's part file: a transport that does not write files returns the
    /// body in memory, and it is written out here.
    static func storingBody(of response: HTTPResponse, sentWith request: HTTPRequest) throws(APIClientError)
        -> HTTPResponse
    {
        guard response.bodyFileURL == nil, let url = request.responseDestination.fileURL else { return response }
        do {
            try response.body.write(to: url)
        } catch {
            throw .downloadDestinationError(
                ResponseBodyDestination.Failure(kind: .cannotWrite, url: url, reason: "\(error)"))
        }
        return response.withBodyFile(url)
    }

    /// The call's final result, with its body file moved into place (or its small body read back), and every other
    /// part file gone.
    func deliver(_ result: Result<HTTPResponse, APIClientError>) -> Result<HTTPResponse, APIClientError> {
        guard !attempts.isEmpty else { return result }
        defer {
            for attempt in attempts { try? FileManager.default.removeItem(at: attempt.partFile) }
        }
        func attempt(of response: HTTPResponse) -> Attempt? {
            attempts.first { $0.partFile == response.bodyFileURL }
        }
        switch result {
        case .success(let response):
            guard let attempt = attempt(of: response) else { return result }
            do {
                return .success(try Self.moveIntoPlace(response, attempt: attempt))
            } catch {
                return .failure(error)
            }
        case .failure(let error):
            return .failure(
                Self.mappingResponses(in: error) { response in
                    guard let attempt = attempt(of: response) else { return response }
                    if attempt.destination.options.contains(.keepFileWhenRejected),
                        let kept = try? Self.moveIntoPlace(response, attempt: attempt)
                    {
                        return kept
                    }
                    return Self.inMemory(response, attempt: attempt)
                }
            )
        }
    }

    // MARK: Destination checks and moves

    private static func checkFolder(_ folder: URL, options: ResponseBodyDestination.Options) throws(APIClientError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .downloadDestinationError(
                    ResponseBodyDestination.Failure(kind: .cannotCreateDirectory, url: folder, reason: "it is a file"))
            }
            return
        }
        guard options.contains(.createIntermediateDirectories) else {
            throw .downloadDestinationError(ResponseBodyDestination.Failure(kind: .directoryMissing, url: folder))
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .downloadDestinationError(
                ResponseBodyDestination.Failure(kind: .cannotCreateDirectory, url: folder, reason: "\(error)"))
        }
    }

    private static func checkNoFile(at url: URL, options: ResponseBodyDestination.Options) throws(APIClientError) {
        guard !options.contains(.replaceExistingFile), FileManager.default.fileExists(atPath: url.path) else { return }
        throw .downloadDestinationError(ResponseBodyDestination.Failure(kind: .fileExists, url: url))
    }

    /// Moves the body file of `response` to its destination and returns the response pointing there.
    private static func moveIntoPlace(_ response: HTTPResponse, attempt: Attempt) throws(APIClientError)
        -> HTTPResponse
    {
        let target: URL
        switch attempt.destination {
        case .memory, .stream: return response
        case .file(let url, _): target = url
        case .directory(let folder, _):
            target = folder.appendingPathComponent(response.suggestedFilename, isDirectory: false)
        }
        let options = attempt.destination.options
        let source = attempt.partFile
        if options.contains(.replaceExistingFile) {
            // rename(2) replaces the target atomically: readers see the old file or the new one, never a mix.
            if rename(source.path, target.path) != 0 {
                let reason = String(cString: strerror(errno))
                throw .downloadDestinationError(
                    ResponseBodyDestination.Failure(kind: .cannotMove, url: target, reason: reason))
            }
        } else {
            try checkNoFile(at: target, options: options)
            do {
                try FileManager.default.moveItem(at: source, to: target)
            } catch {
                let exists = FileManager.default.fileExists(atPath: target.path)
                throw .downloadDestinationError(
                    ResponseBodyDestination.Failure(
                        kind: exists ? .fileExists : .cannotMove, url: target, reason: "\(error)"))
            }
        }
        return HTTPResponse(
            statusCode: response.statusCode,
            headers: response.headers,
            body: response.body,
            request: response.request.withResponseDestination(attempt.destination),
            url: response.url,
            bodyFileURL: target,
            timings: response.timings
        )
    }

    /// `response` with a small body read back into memory and no file.
    private static func inMemory(_ response: HTTPResponse, attempt: Attempt) -> HTTPResponse {
        var body = response.body
        if let handle = try? FileHandle(forReadingFrom: attempt.partFile) {
            defer { try? handle.close() }
            if let data = try? handle.read(upToCount: rejectedBodyLimit + 1), data.count <= rejectedBodyLimit {
                body = data
            }
        }
        return HTTPResponse(
            statusCode: response.statusCode,
            headers: response.headers,
            body: body,
            request: response.request.withResponseDestination(attempt.destination),
            url: response.url,
            timings: response.timings
        )
    }

    /// `error` with `transform` applied to every response it carries.
    private static func mappingResponses(
        in error: APIClientError,
        _ transform: (HTTPResponse) -> HTTPResponse
    ) -> APIClientError {
        switch error {
        case .httpResponseError(let response): return .httpResponseError(transform(response))
        case .retryLimitExceeded(let attempts, .success(let response)):
            return .retryLimitExceeded(attempts: attempts, lastOutcome: .success(transform(response)))
        case .retryLimitExceeded(let attempts, .failure(let inner)):
            return .retryLimitExceeded(
                attempts: attempts, lastOutcome: .failure(mappingResponses(in: inner, transform)))
        default: return error
        }
    }
}
