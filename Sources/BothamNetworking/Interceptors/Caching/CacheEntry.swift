import Foundation

/// One stored response (RFC 9111 §3): its head, what it varies on, when it was requested and received, and its
/// body (in memory, or in the disk store's entry file).
struct CacheEntry: Sendable {
    /// Everything but the body; what the disk store writes before the body.
    let head: Head
    /// The body.
    let body: CacheBody
    /// ``head`` read once: fields, directives, freshness inputs and the fields a hit serves.
    let parsed: CachedResponseHead

    init(head: Head, body: CacheBody) {
        self.head = head
        self.body = body
        parsed = CachedResponseHead(head)
    }

    /// The stored head of a response.
    struct Head: Sendable, Codable, Hashable {
        /// The key's URL and partition (checked on reading, so a hash collision of file names is a miss).
        var key: String
        var statusCode: Int
        /// The header fields, in order, as (name, value) pairs.
        var headerFields: [[String]]
        /// The URL the response came from (after redirects).
        var responseURL: String?
        var vary: CacheVary
        /// §4.2.3's `request_time` and `response_time`, seconds since 1970.
        var requestTime: Double
        var responseTime: Double
        /// The body's length and hex SHA-256.
        var bodyLength: Int
        var bodySHA256: String

        /// The header fields as ``HTTPHeaders``.
        var headers: HTTPHeaders {
            get {
                HTTPHeaders(
                    headerFields.compactMap { pair in
                        pair.count == 2 ? HTTPHeaders.Field(name: HTTPFieldName(pair[0]), value: pair[1]) : nil
                    })
            }
            set { headerFields = newValue.fields.map { [$0.name.rawName, $0.value] } }
        }
    }

    /// The memory this entry takes in a store, roughly: its body and its fields.
    var cost: Int {
        head.bodyLength + head.headerFields.reduce(256) { $0 + $1.reduce(32) { $0 + $1.utf8.count } }
    }
}

/// Where a stored body is.
enum CacheBody: Sendable {
    /// In memory.
    case data(Data)
    /// In the disk store's entry file at `url`, `length` bytes from `offset`.
    case file(URL, offset: Int, length: Int)
}

extension CacheEntry {
    /// The head of `response`, received at `responseTime` for a request sent at `requestTime`, with its body's
    /// length and checksum.
    static func head(
        of response: HTTPResponse, key: CacheKey, requestHeaders: HTTPHeaders, requestTime: Date, responseTime: Date,
        bodyLength: Int, bodySHA256: String
    ) -> Head {
        var head = Head(
            key: key.combined, statusCode: response.statusCode, headerFields: [],
            responseURL: response.url?.absoluteString,
            vary: CacheVary(response: response.headers, request: requestHeaders),
            requestTime: requestTime.timeIntervalSince1970, responseTime: responseTime.timeIntervalSince1970,
            bodyLength: bodyLength, bodySHA256: bodySHA256)
        head.headers = CacheHeaders.dated(CacheHeaders.storable(response.headers), receivedAt: responseTime)
        return head
    }
}

/// Which header fields a cache keeps and how a `304` updates them.
enum CacheHeaders {
    /// `headers` without what §3.1 forbids storing: `Connection` and the fields it names, the proxy
    /// authentication fields, and our own `Cache-Status`.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        var excluded: Set<HTTPFieldName> = [
            .connection, .proxyAuthorization, "Proxy-Authenticate", "Proxy-Authentication-Info", "Keep-Alive",
            "Transfer-Encoding", "TE", "Upgrade", "Proxy-Connection", CacheStatus.fieldName,
        ]
        for value in headers.values(for: .connection) {
            for name in HTTPFieldList.elements(of: value) { excluded.insert(HTTPFieldName(name)) }
        }
        return HTTPHeaders(headers.fields.filter { !excluded.contains($0.name) })
    }

    /// `headers` with a `Date` field of `receivedAt` (IMF-fixdate) when they have none: RFC 9110 §6.6.1 asks a
    /// recipient with a clock that caches a response without `Date` to record when it was received and add the
    /// field. The freshness arithmetic reads the same time (§4.2.3's `response_time`).
    static func dated(_ headers: HTTPHeaders, receivedAt: Date) -> HTTPHeaders {
        guard !headers.contains(CachedResponseHead.date) else { return headers }
        var dated = headers
        dated.add(CachedResponseHead.date, HTTPDate.imfFixdate(receivedAt))
        return dated
    }

    /// `stored` updated with the fields of a `304` (§3.2, §4.3.4): each field of `update` replaces the stored
    /// fields of its name, except those §3.1 excludes and `Content-Length` (the stored body's length stays).
    static func merging(_ stored: HTTPHeaders, with update: HTTPHeaders) -> HTTPHeaders {
        let updates = storable(update)
        let replaced = Set(updates.fields.map(\.name)).subtracting([.contentLength])
        var fields = stored.fields.filter { !replaced.contains($0.name) }
        fields += updates.fields.filter { $0.name != .contentLength }
        return HTTPHeaders(fields)
    }
}
