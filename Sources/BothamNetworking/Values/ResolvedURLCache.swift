import Foundation

/// A resolved URL remembered with the endpoint, path and parameters it was resolved from.
///
/// It is only used while those three are unchanged, so a copy changed in any other way (headers, body) keeps it and a
/// copy with another path does not. It never takes part in equality or hashing: two requests that differ only in
/// whether their URL was cached are the same request.
///
/// The entry lives in a small immutable object, so the cache adds one reference to a request instead of the three
/// values it compares (requests are copied often, and async frames hold several of them).
struct ResolvedURLCache: Sendable, Hashable {
    private final class Entry: Sendable {
        let baseEndpoint: String
        let path: String
        let parameters: HTTPParameters
        let url: URL

        init(baseEndpoint: String, path: String, parameters: HTTPParameters, url: URL) {
            self.baseEndpoint = baseEndpoint
            self.path = path
            self.parameters = parameters
            self.url = url
        }
    }

    private let entry: Entry?

    init() {
        entry = nil
    }

    init(baseEndpoint: String, path: String, parameters: HTTPParameters, url: URL) {
        entry = Entry(baseEndpoint: baseEndpoint, path: path, parameters: parameters, url: url)
    }

    /// The cached URL when it was resolved from `request`'s endpoint, path and parameters.
    func url(for request: HTTPRequest) -> URL? {
        guard let entry, entry.baseEndpoint == request.baseEndpoint, entry.path == request.path,
            entry.parameters == request.parameters
        else { return nil }
        return entry.url
    }

    static func == (lhs: ResolvedURLCache, rhs: ResolvedURLCache) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
