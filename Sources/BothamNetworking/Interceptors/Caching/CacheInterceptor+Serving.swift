import Foundation

extension CacheInterceptor {
    /// `entry` served to `request` without validation: the stored status and fields, a fresh `Age`, minus the
    /// fields a qualified `no-cache` names (§5.2.2.4), with `status` as its `Cache-Status`; its body where the
    /// request wants it. `nil` when the body is not intact (the store removed it): a miss.
    func serve(
        _ entry: CacheEntry, key: CacheKey, to request: HTTPRequest, freshness: CacheFreshness, status: String
    ) -> HTTPResponse? {
        guard let body = body(of: entry, key: key, for: request) else { return nil }
        var headers = entry.head.headers
        for name in CacheControl(headers).fieldNames("no-cache") { headers.remove(name) }
        headers.remove("Age")
        headers.add("Age", String(Int64(min(max(0, freshness.age), CacheFreshness.maximumDeltaSeconds).rounded(.down))))
        return response(head: entry.head, headers: headers, body: body, request: request, status: status)
    }

    /// A stored body, put where `request` wants it.
    enum ServedBody {
        case data(Data)
        case file(URL)
        case stream(Data)
    }

    /// The body of `entry` for `request`'s destination: read into memory (or handed to a stream), or copied into
    /// its file; `nil` when it is not intact.
    func body(of entry: CacheEntry, key: CacheKey, for request: HTTPRequest) -> ServedBody? {
        switch request.responseDestination {
        case .file(let url, _):
            return storage.store.writeBody(of: entry, key: key, to: url) ? .file(url) : nil
        case .stream:
            return storage.store.body(of: entry, key: key).map { .stream($0) }
        case .memory, .directory:
            return storage.store.body(of: entry, key: key).map { .data($0) }
        }
    }

    /// The response made of a stored head, `headers`, `body` and `status`.
    func response(
        head: CacheEntry.Head, headers: HTTPHeaders, body: ServedBody, request: HTTPRequest, status: String
    ) -> HTTPResponse {
        var headers = headers
        headers.remove(CacheStatus.fieldName)
        headers.add(CacheStatus.fieldName, status)
        let url = head.responseURL.flatMap { URL(string: $0) }
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
