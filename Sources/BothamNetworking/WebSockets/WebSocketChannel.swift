import Foundation

/// What a transport hands the client for an upgraded connection: a WebSocket's messages both ways, its pings and
/// its close handshake. `NativeHTTPClient` runs RFC 6455 over its own connections; a stub runs a scripted peer.
///
/// A transport that answers a WebSocket handshake request (one carrying `Upgrade: websocket`) with a `101` puts
/// its channel on the response (`HTTPResponse.withUpgrade(_:)`, in a `WebSocketChannelHandle`); `BothamAPIClient.webSocket(...)`
/// takes it from there. Every method may be called from any task.
package protocol WebSocketChannel: AnyObject, Sendable {
    /// The subprotocol the server chose (`Sec-WebSocket-Protocol`), if any.
    var subprotocol: String? { get }
    /// Sends one whole message, suspending while the channel's send buffer is full; throws once the connection is
    /// closing or closed.
    func send(_ message: WebSocket.Message) async throws(APIClientError)
    /// The next whole message; `nil` once the close handshake ended (``closure`` says how); throws when the
    /// connection failed. One reader at a time.
    func receive() async throws(APIClientError) -> WebSocket.Message?
    /// Sends a ping and returns when its pong arrives.
    func ping() async throws(APIClientError)
    /// Starts (or joins) the close handshake and returns once the connection is closed: the peer answered, or
    /// the close timeout passed.
    func close(code: WebSocket.CloseCode, reason: String) async
    /// How the connection ended, once it has.
    var closure: WebSocket.Closure? { get }
    /// Ends the connection at once (`1001 Going Away` when it is still open): the client dropped it. Idempotent.
    func abort()
}

/// The one owner of an upgraded channel until a ``WebSocket`` takes it: aborts the channel when the last holder
/// lets it go, so a handshake whose response never reaches the caller (a response interceptor retried it, the call
/// was cancelled) leaves no connection open.
package final class WebSocketChannelHandle: Sendable {
    /// The channel.
    package let channel: any WebSocketChannel

    /// Wraps `channel`.
    package init(_ channel: any WebSocketChannel) {
        self.channel = channel
    }

    deinit {
        channel.abort()
    }
}

/// What the facade tells the transport about the WebSocket it asks for, beyond the handshake's header fields: set
/// for the call by `BothamAPIClient.webSocket(...)` (a task-local value, so it
/// crosses every interceptor without being part of the request).
package struct WebSocketUpgrade: Sendable {
    /// The client's options.
    package var options: WebSocket.Options

    /// The upgrade the running call asks for; `nil` outside `webSocket(...)` (a transport then uses the defaults).
    @TaskLocal package static var current: WebSocketUpgrade?

    /// Whether `request` asks for a WebSocket (`Upgrade: websocket` with a `Sec-WebSocket-Key`).
    package static func isRequested(by request: HTTPRequest) -> Bool {
        guard request.headers.contains(.secWebSocketKey), let upgrade = request.headers[.upgrade] else { return false }
        return HTTPFieldList.elements(of: upgrade).contains { $0.lowercased() == "websocket" }
    }
}

extension HTTPFieldName {
    /// `Upgrade` (RFC 9110 §7.8).
    package static let upgrade = HTTPFieldName("Upgrade")
    /// `Sec-WebSocket-Key` (RFC 6455 §11.3.1).
    package static let secWebSocketKey = HTTPFieldName("Sec-WebSocket-Key")
    /// `Sec-WebSocket-Version` (RFC 6455 §11.3.5).
    package static let secWebSocketVersion = HTTPFieldName("Sec-WebSocket-Version")
    /// `Sec-WebSocket-Protocol` (RFC 6455 §11.3.4).
    package static let secWebSocketProtocol = HTTPFieldName("Sec-WebSocket-Protocol")
    /// `Sec-WebSocket-Extensions` (RFC 6455 §11.3.2).
    package static let secWebSocketExtensions = HTTPFieldName("Sec-WebSocket-Extensions")
    /// `Sec-WebSocket-Accept` (RFC 6455 §11.3.3).
    package static let secWebSocketAccept = HTTPFieldName("Sec-WebSocket-Accept")
}
