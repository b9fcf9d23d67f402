import Foundation

/// The transport seam: sends one request and returns the server's response.
///
/// A transport only transports. Validation, URL scheme checks, interceptors and retries live in
/// ``BothamAPIClient``, so an `HTTPClient` is easy to write and to replace in tests (see `StubHTTPClient` in
/// `BothamNetworkingTesting`).
///
/// The client hands the transport a *prepared* request: its URL resolves, its header fields are valid, and its body
/// (if any) is raw data with `Content-Type` already set; ``HTTPRequest/bodyData()`` returns those bytes.
///
/// A transport reports failures as ``APIClientError``: ``APIClientError/networkError(_:)`` for network failures,
/// ``APIClientError/timeout`` when ``HTTPRequest/timeout`` ran out, ``APIClientError/cancelled`` when the calling
/// task was cancelled, and ``APIClientError/httpClientError(underlying:)`` for anything else. Any status code,
/// 4xx and 5xx included, is a response, not an error.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the response.
    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse
}

extension HTTPRequest {
    /// The body's bytes as they go on the wire, or `nil` when there is no body.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the body cannot be encoded.
    public func bodyData() throws(APIClientError) -> Data? {
        try body?.encoded(forContentType: headers[.contentType]).data
    }
}
