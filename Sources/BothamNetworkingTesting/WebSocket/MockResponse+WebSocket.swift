import BothamNetworking

extension MockResponse {
    /// A response that accepts a WebSocket handshake (RFC 6455 §4.2) and then runs `script` as the server end.
    ///
    /// ```swift
    /// server.enqueue(.webSocket(subprotocol: "chat.v2") { peer in
    ///     try await peer.send(.text("welcome"))
    ///     while let message = try await peer.receive() { try await peer.send(message) }  // an echo
    /// })
    /// let socket = try await apiClient.webSocket("/chat", protocols: ["chat.v2"])
    /// ```
    ///
    /// A valid upgrade request gets `101 Switching Protocols` with its `Sec-WebSocket-Accept`, the subprotocol when
    /// the client offered it, and `permessage-deflate` when the client offered it and `compression` is `true`
    /// (plus any field added with ``withHeader(_:_:)``); an invalid one (not a `GET`, no `Upgrade: websocket`, a
    /// bad key or version) gets `400` and the connection closes. The handshake is recorded like any request
    /// (``MockWebServer/takeRequest(timeout:)``, ``WebSocketPeer/request``).
    ///
    /// The server answers pings with pongs and the client's close with its own (unless
    /// ``WebSocketPeer/Fault/ignorePings`` or ``WebSocketPeer/Fault/ignoreClose`` says not to). When `script`
    /// returns and the socket is still open, the server closes it with `1000` (`1011` when `script` threw) and
    /// waits up to 10 s for the client's answer. Every wait is bounded: ``WebSocketPeer/receive()`` throws
    /// ``MockWebServerError/timeout(_:)`` after 30 s without a message, and ``MockWebServer/shutdown()`` ends the
    /// connection and cancels a script still running. A script that outlives its connection runs on, its calls
    /// failing (or, for `receive()`, returning `nil`) at once. Served over HTTP/1.1 connections only.
    public static func webSocket(
        subprotocol: String? = nil, compression: Bool = true,
        _ script: @escaping @Sendable (WebSocketPeer) async throws -> Void
    ) -> MockResponse {
        var response = MockResponse(statusCode: 101)
        response.webSocket = MockWebSocketScript(subprotocol: subprotocol, compression: compression, body: script)
        return response
    }
}

/// What ``MockResponse/webSocket(subprotocol:compression:_:)`` asks of the server: how to answer the handshake
/// and the script to run afterwards.
package struct MockWebSocketScript: Sendable {
    /// The subprotocol chosen when the client offers it.
    package var subprotocol: String?
    /// Whether `permessage-deflate` is accepted when offered.
    package var compression: Bool
    /// The server end's script.
    package var body: @Sendable (WebSocketPeer) async throws -> Void
}
