import BothamNetworking
import Foundation

/// A request as ``MockWebServer`` received it, for assertions in tests.
///
/// Values are kept as they came off the wire: ``target`` is the raw request-target, ``path`` and ``query`` are
/// not percent-decoded, header names keep their case and order. ``queryItems`` and the header look-ups
/// (`HTTPHeaders` compares names case-insensitively) offer the decoded views.
public struct RecordedRequest: Sendable {
    /// The method, such as `GET` or `POST`, exactly as sent (its `rawValue` is the token on the wire).
    public let method: HTTPMethod
    /// The raw request-target from the request line, such as `/users?page=2`.
    public let target: String
    /// The HTTP version from the request line, such as `HTTP/1.1`; `HTTP/2` for a request that came on an HTTP/2
    /// stream (its ``target`` is `:path`, and its ``headers`` start with `Host` made from `:authority`, then the
    /// fields as sent, in lower case, with `cookie` fields joined by `; ` as RFC 9113 §8.2.3 says).
    package let version: String
    /// The path part of ``target``, still percent-encoded (for an absolute-form target, the path of that URL).
    public let path: String
    /// The query part of ``target`` without the `?`, still percent-encoded, or `nil` when there is no `?`.
    public let query: String?
    /// The header fields in the order received, names spelled as sent, repeats kept.
    public let headers: HTTPHeaders
    /// The trailer fields of a chunked body, in order (empty otherwise).
    public let trailers: HTTPHeaders
    /// The body, after removing chunked framing.
    public let body: Data
    /// The sizes of the chunks of a chunked body, in order (empty when the body was not chunked).
    package let chunkSizes: [Int]
    /// The position of this request on its connection: 0 for the first, 1 for the second (keep-alive), …
    package let sequenceNumber: Int
    /// Which connection carried the request: 0 for the first connection the server accepted, 1 for the next, …
    package let connectionIndex: Int

    init(
        method: HTTPMethod,
        target: String,
        version: String,
        headers: HTTPHeaders,
        trailers: HTTPHeaders,
        body: Data,
        chunkSizes: [Int],
        sequenceNumber: Int,
        connectionIndex: Int
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.trailers = trailers
        self.body = body
        self.chunkSizes = chunkSizes
        self.sequenceNumber = sequenceNumber
        self.connectionIndex = connectionIndex
        (self.path, self.query) = Self.split(target: target)
    }

    /// The query items of ``query``, percent-decoded, in order, repeats kept. A `+` stays a `+`; an item without
    /// `=` has a `nil` value.
    public var queryItems: [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : nil
            return URLQueryItem(
                name: name.removingPercentEncoding ?? name,
                value: value.map { $0.removingPercentEncoding ?? $0 }
            )
        }
    }

    /// The first value of the header called `name` (case-insensitive), or `nil`: `headers[name]`. Every value is
    /// `headers.values(for: name)`.
    public func header(_ name: HTTPFieldName) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8, or `nil` when it is not valid UTF-8.
    public var bodyAsString: String? {
        String(data: body, encoding: .utf8)
    }

    /// Splits a request-target into its (still encoded) path and query.
    private static func split(target: String) -> (path: String, query: String?) {
        var pathAndQuery = Substring(target)
        if let scheme = target.range(of: "://") {
            let afterScheme = target[scheme.upperBound...]
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
            pathAndQuery = authorityEnd.map { afterScheme[$0...] } ?? ""
        }
        if let hash = pathAndQuery.firstIndex(of: "#") {
            pathAndQuery = pathAndQuery[..<hash]
        }
        guard let mark = pathAndQuery.firstIndex(of: "?") else {
            return (pathAndQuery.isEmpty ? "/" : String(pathAndQuery), nil)
        }
        let path = pathAndQuery[..<mark]
        return (path.isEmpty ? "/" : String(path), String(pathAndQuery[pathAndQuery.index(after: mark)...]))
    }
}

extension RecordedRequest: CustomStringConvertible {
    /// The request line, such as `GET /users HTTP/1.1`.
    public var description: String { "\(method) \(target) \(version)" }
}
