import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fresh URLSession per test, so pooled connections never leak from one test's server to another.
func makeTestSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    return URLSession(configuration: configuration)
}

extension URLSession {
    /// `data(for:)` with the response cast to `HTTPURLResponse`.
    func httpData(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    /// A GET of `url`.
    func httpData(from url: URL) async throws -> (Data, HTTPURLResponse) {
        try await httpData(for: URLRequest(url: url))
    }
}
