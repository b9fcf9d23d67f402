import Foundation

/// A resolved URL remembered with the endpoint, path and parameters it was resolved from.
///
/// It is only used while those three are unchanged, so a copy changed in any other way (headers, body) keeps it and a
/// copy with another path does not. It never takes part in equality or hashing: two requests that differ only in
/// whether their URL was cached are the same request.
struct ResolvedURLCache: Sendable, Hashable {
    private var baseEndpoint = ""
    private var path = ""
    private var parameters = HTTPParameters()
    private var url: URL?

    init() {}

    init(baseEndpoint: String, path: String, parameters: HTTPParameters, url: URL) {
        self.baseEndpoint = baseEndpoint
        self.path = path
        self.parameters = parameters
        self.url = url
    }

    /// The cached URL when it was resolved from `request`'s endpoint, path and parameters.
    func url(for request: HTTPRequest) -> URL? {
        guard let url, baseEndpoint == request.baseEndpoint, path == request.path, parameters == request.parameters
        else { return nil }
        return url
    }

    static func == (lhs: ResolvedURLCache, rhs: ResolvedURLCache) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
