import BothamNetworking
import Foundation

/// What identifies the requests of an `Endpoint`: its method, its path (without the query) and the query items it
/// fixes (in its path, and from parameters that go in the query), encoded exactly as the endpoint encodes them.
struct EndpointRoute: Sendable, CustomStringConvertible {
    /// The base endpoint the route's URL is resolved against (only its query is read from it).
    static let base = "http://endpoint.invalid"

    let method: HTTPMethod
    let path: String
    let query: [URLQueryItem]

    /// The route of `endpoint`.
    ///
    /// - Throws: `APIClientError/invalidRequest(reason:)` when its parameters or its path cannot be encoded.
    init<Response>(_ endpoint: Endpoint<Response>) throws(APIClientError) {
        var request = HTTPRequest(method: endpoint.method, baseEndpoint: Self.base, path: endpoint.path)
        if let parameters = endpoint.parameters, endpoint.encoding.encodesInQuery(for: endpoint.method) {
            request = try request.encodingParameters(parameters, with: endpoint.encoding)
        }
        let url = try request.resolvedURL()
        method = endpoint.method
        let pathAndQuery = endpoint.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = pathAndQuery.first.map(String.init) ?? endpoint.path
        query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// Whether `request` is one of the route's: the method, the path as ``RequestMatcher/path(_:)`` compares it, and
    /// every query item of the route (as many times as the route has it); other query items do not count.
    func matches(_ request: HTTPRequest) -> Bool {
        guard request.method == method, RequestMatcher.path(path).matches(request) else { return false }
        guard !query.isEmpty else { return true }
        guard let url = request.url else { return false }
        var sent = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        for item in query {
            guard let index = sent.firstIndex(of: item) else { return false }
            sent.remove(at: index)
        }
        return true
    }

    /// `GET /todos?userId=1`.
    var description: String {
        let items = query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return "\(method.rawValue) \(path)" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }
}
