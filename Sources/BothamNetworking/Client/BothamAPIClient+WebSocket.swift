import Foundation

extension BothamAPIClient {
    /// Opens a WebSocket (RFC 6455) at `path` of the base endpoint.
    ///
    /// ```swift
    /// let socket = try await apiClient.webSocket("/chat", protocols: ["chat.v2"])
    /// try await socket.send(.text("hello"))
    /// ```
    ///
    /// The handshake is a call through every interceptor; it succeeds with the server's `101 Switching Protocols`
    /// (or `200` over HTTP/2), checked as RFC 6455 §4.1 says, and fails with an ``APIClientError`` otherwise
    /// (<doc:WebSockets>: the handshake, errors, transports).
    ///
    /// - Parameters:
    ///   - path: The path, relative to the base endpoint.
    ///   - parameters: Query parameters.
    ///   - headers: Extra header fields of the handshake (not the `Sec-WebSocket-*` ones, which this sets).
    ///   - protocols: The subprotocols offered (`Sec-WebSocket-Protocol`), most preferred first.
    ///   - options: Message size limit, compression, keep-alive pings, close timeout, reconnection.
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
