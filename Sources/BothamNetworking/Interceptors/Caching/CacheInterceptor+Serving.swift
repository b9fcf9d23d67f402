import Foundation

extension CacheInterceptor {
    /// `entry` served to `request` without validation: the stored status and fields, a fresh `Age`, minus the
    /// fields a qualified `no-cache` names (§5.2.2.4), with `status` as its `Cache-Status`; its body where the
    /// request wants it. `nil` when the body is not intact (the store removed it): a miss.
    func serve(
        _ entry: CacheEntry, key: CacheKey, to request: HTTPRequest, freshness: CacheFreshness, status: String
    ) -> HTTPResponse? {
        guard let body = body(of: entry, key: key, for: request) else { return nil }
        // The stored fields without `Age` and the `no-cache` ones were worked out when the entry was made.
        var headers = entry.parsed.servedHeaders
        let age = min(max(0, freshness.age), CacheFreshness.maximumDeltaSeconds)
        headers.add(CachedResponseHead.age, String(Int64(age.rounded(.down))))
        return response(entry, headers: headers, body: body, request: request, status: status)
    }

    /// A stored body, put where `request` wants it.
    enum ServedBody {
        case data(Data)
        case file(URL)
        case stream(Data)
    }

    /// The body of `entry` for `request`'s destination: read into memory (or handed to a stream), or copied into
    /// its file; `nil` when it is not intact.
    ///
    /// A `HEAD` request gets the stored head only (RFC 9110 §9.3.2): an empty body, the stored one left unread.
    func body(of entry: CacheEntry, key: CacheKey, for request: HTTPRequest) -> ServedBody? {
        if request.method == .head { return Self.emptyBody(for: request) }
        switch request.responseDestination {
        case .file(let url, _):
            return storage.store.writeBody(of: entry, key: key, to: url) ? .file(url) : nil
        case .stream:
            return storage.store.body(of: entry, key: key).map { .stream($0) }
        case .memory, .directory:
            return storage.store.body(of: entry, key: key).map { .data($0) }
        }
    }

    /// The empty body of a response to a `HEAD` request, where the request wants it; `nil` when its file cannot be
    /// written.
    static func emptyBody(for request: HTTPRequest) -> ServedBody? {
        switch request.responseDestination {
        case .file(let url, _):
            return FileManager.default.createFile(atPath: url.path, contents: Data()) ? .file(url) : nil
        case .stream:
            return .stream(Data())
        case .memory, .directory:
            return .data(Data())
        }
    }

    /// The response made of `entry`'s status and URL, `headers` (the stored ones carry no `Cache-Status`), `body`
    /// and `status`.
    func response(
        _ entry: CacheEntry, headers: HTTPHeaders, body: ServedBody, request: HTTPRequest, status: String
    ) -> HTTPResponse {
        var headers = headers
        headers.add(CacheStatus.fieldName, status)
        let head = entry.head
        let url = entry.parsed.responseURL
        switch body {
        case .data(let data):
            return HTTPResponse(statusCode: head.statusCode, headers: headers, body: data, request: request, url: url)
        case .file(let fileURL):
            return HTTPResponse(
                statusCode: head.statusCode, headers: headers, request: request, url: url, bodyFileURL: fileURL)
        case .stream(let data):
            return HTTPResponse(
                statusCode: head.statusCode, headers: headers, request: request, url: url,
                bodyStream: HTTPBodyStream(data: data))
        }
    }
}
