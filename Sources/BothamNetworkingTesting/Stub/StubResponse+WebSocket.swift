import BothamNetworking
import BothamWebSocketWire
import Foundation

extension StubResponse {
    /// A WebSocket whose server end runs `script`, in memory: the handshake is answered `101 Switching Protocols`
    /// and the socket's messages pass whole between the client and the script's ``WebSocketPeer``, no network.
    ///
    /// ```swift
    /// stubClient.stub(.path("/chat"), with: .webSocket(subprotocol: "chat.v2") { peer in
    ///     #expect(peer.request.header(.authorization) == "Bearer t0ken")
    ///     while let message = try await peer.receive() { try await peer.send(message) }  // an echo
    /// })
    /// let socket = try await apiClient.webSocket("/chat", protocols: ["chat.v2"])
    /// ```
    ///
    /// It behaves as `NativeHTTPClient`'s WebSockets do on a connection:
    /// - The handshake request is recorded (``StubHTTPClient/receivedRequests``) and the script sees it as
    ///   ``WebSocketPeer/request`` after every interceptor ran. `protocol` is chosen when the client offered it
    ///   (the `101` then carries `Sec-WebSocket-Protocol`); otherwise the `101` chooses none, as a lenient server
    ///   does. A request that asks for no WebSocket gets `426 Upgrade Required`.
    /// - The close handshake: the peer's ``WebSocketPeer/close(code:reason:)`` ends the client's messages with that
    ///   code and reason; the client's `close(code:reason:)` ends the peer's ``WebSocketPeer/receive()`` (`nil`)
    ///   with ``WebSocketPeer/closeCode`` set, and is answered at once unless the peer injected `.ignoreClose`:
    ///   then it waits `WebSocket.Options.closeTimeout`, counted as the stub's latency is (at once in
    ///   `LatencyMode.virtual`, on the call's clock with `LatencyMode.clock`) and ends with `1006`.
    /// - Pings are answered unless the peer injected `.ignorePings` (then `ping()` waits until the socket ends).
    ///   Keep-alive pings (`WebSocket.Options.pingInterval`) are not simulated.
    /// - Faults are reported as the native transport reports them: `.dropConnection` as `connectionLost` with
    ///   `1006`; `.invalidUTF8Text` and `.rawBytes` (there are no frames in memory: any raw bytes break the
    ///   protocol) as `badServerResponse` with `1007` and `1002`; a message over `maxMessageSize` (sent, or
    ///   `.oversizedMessage`) as `responseTooLarge` with `1009`, which the peer sees as the client's close code.
    /// - A peer send that leaves the client more than 256 KiB unread returns once the client read below it, and a
    ///   client send the same way: an unread message holds the other side back.
    /// - When the script returns and the socket is still open, the peer closes with `1000`; when it throws, with
    ///   `1011` and the error as the reason.
    public static func webSocket(
        subprotocol: String? = nil, _ script: @escaping @Sendable (WebSocketPeer) async throws -> Void
    ) -> StubResponse {
        StubResponse(outcome: .webSocket(protocol: subprotocol, script: script))
    }
}

extension StubHTTPClient {
    /// The answer of a ``StubResponse/webSocket(subprotocol:_:)`` stub to `request`: a `101` carrying an in-memory
    /// channel whose peer runs `script`, or a `426` when `request` asks for no WebSocket.
    static func webSocketResponse(
        to request: HTTPRequest, protocol subprotocol: String?,
        script: @escaping @Sendable (WebSocketPeer) async throws -> Void,
        waitOut: @escaping @Sendable (Duration) async -> Bool
    ) -> HTTPResponse {
        guard WebSocketUpgrade.isRequested(by: request), let key = request.headers[.secWebSocketKey] else {
            var headers = HTTPHeaders()
            headers.add(.upgrade, "websocket")
            headers.add(.connection, "Upgrade")
            return HTTPResponse(statusCode: 426, headers: headers, body: Data(), request: request)
        }
        let offered = request.headers.values(for: .secWebSocketProtocol).flatMap(HTTPFieldList.elements(of:))
        let chosen = subprotocol.flatMap { offered.contains($0.lowercased()) ? $0 : nil }
        var headers = HTTPHeaders()
        headers.add(.upgrade, "websocket")
        headers.add(.connection, "Upgrade")
        headers.add(.secWebSocketAccept, WebSocketHandshake.acceptValue(forKey: key))
        if let chosen { headers.add(.secWebSocketProtocol, chosen) }
        let connection = StubWebSocketConnection(
            request: recorded(request), subprotocol: chosen,
            options: WebSocketUpgrade.current?.options ?? WebSocket.Options(), waitOut: waitOut)
        connection.start(script)
        return HTTPResponse(statusCode: 101, headers: headers, body: Data(), request: request)
            .withUpgrade(WebSocketChannelHandle(StubWebSocketChannel(connection)))
    }

    /// `request` as a server would have recorded it: its path and query as the target, its header fields.
    private static func recorded(_ request: HTTPRequest) -> RecordedRequest {
        var target = "/"
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery { target += "?" + query }
        }
        return RecordedRequest(
            method: request.method, target: target, version: "HTTP/1.1", headers: request.headers,
            trailers: HTTPHeaders(), body: Data(), chunkSizes: [], sequenceNumber: 0, connectionIndex: 0)
    }
}
