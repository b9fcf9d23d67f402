import Foundation

extension BothamAPIClient {
    /// Opens a WebSocket (RFC 6455) at `path` of the base endpoint.
    ///
    /// ```swift
    /// let socket = try await apiClient.webSocket("/chat", protocols: ["chat.v2"])
    /// try await socket.send(.text("hello"))
    /// ```
    ///
    /// The handshake is a call like any other: its `GET` goes through the request interceptors and every
    /// ``HTTPInterceptor`` (auth, signing, cookies, logging, tracing), its response through the response
    /// interceptors, so a `401` or a `503` before the upgrade is refreshed or retried as for any call, and a redirect
    /// before it follows the redirect rules. The call succeeds with the server's `101 Switching Protocols` (or
    /// `200` over HTTP/2, RFC 8441), checked as RFC 6455 §4.1 says (`Sec-WebSocket-Accept`, the subprotocol and
    /// extensions it chose among those offered); any other response is ``APIClientError/httpResponseError(_:)``.
    /// A base endpoint may be `ws://` or `wss://` (the same as `http://` and `https://`).
    ///
    /// `NativeHTTPClient` runs WebSockets on Linux and Apple platforms; `URLSessionHTTPClient` on Linux cannot
    /// (FoundationNetworking's libcurl has no WebSocket support) and fails with
    /// ``APIClientError/invalidRequest(reason:)`` before sending anything.
    ///
    /// - Parameters:
    ///   - path: The path, relative to the base endpoint.
    ///   - parameters: Query parameters.
    ///   - headers: Extra header fields of the handshake (not the `Sec-WebSocket-*` ones, which this sets).
    ///   - protocols: The subprotocols offered (`Sec-WebSocket-Protocol`), most preferred first.
    ///   - options: Message size limit, compression, keep-alive pings, close timeout.
    public func webSocket(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        protocols: [String] = [],
        options: WebSocket.Options = WebSocket.Options()
    ) async throws(APIClientError) -> WebSocket {
        let open: @Sendable () async throws(APIClientError) -> (HTTPResponse, WebSocketChannelHandle) = {
            () async throws(APIClientError) -> (HTTPResponse, WebSocketChannelHandle) in
            // A fresh request (and key) for every opening: the first and each reconnection.
            let request = try WebSocketOpening.request(
                baseEndpoint: self.baseEndpoint, path: path, parameters: parameters, headers: headers,
                protocols: protocols, options: options)
            let upgrade = WebSocketUpgrade(options: options)
            let result = await WebSocketUpgrade.$current.withValue(upgrade) { await self.send(request) }
            let response: HTTPResponse = try result.get()
            guard let handle = response.upgrade as? WebSocketChannelHandle else {
                let reason =
                    "the transport (\(type(of: self.httpClient))) answered \(response.statusCode) but opened no WebSocket"
                throw APIClientError.networkError(
                    APIClientError.NetworkFailure(
                        kind: .badServerResponse, underlying: WebSocketOpening.Failure(reason)))
            }
            return (response, handle)
        }
        let (response, handle) = try await open()
        return WebSocket(
            response: response, handle: handle, reconnection: options.reconnection, clock: configuration.clock,
            reopen: options.reconnection == nil ? nil : open)
    }
}
