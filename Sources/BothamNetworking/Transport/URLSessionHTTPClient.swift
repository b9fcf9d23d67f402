import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession` (FoundationNetworking on Linux).
public final class URLSessionHTTPClient: HTTPClient {
    private let session: URLSession

    /// Creates a transport with its own session made from `configuration`.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` with `URLSession`.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let urlRequest = try URLRequestBuilder.urlRequest(for: request)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw URLErrorMapping.apiClientError(for: error)
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            throw .networkError(NetworkFailure(kind: .badServerResponse))
        }
        return HTTPResponse(
            statusCode: httpResponse.statusCode,
            headers: ResponseHeaders.headers(of: httpResponse),
            body: data,
            request: request,
            url: httpResponse.url
        )
    }
}
