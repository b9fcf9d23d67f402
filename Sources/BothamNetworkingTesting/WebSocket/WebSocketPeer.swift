import BothamNetworking
import Foundation

/// The server end of a WebSocket in a test: what a script given to `MockResponse.webSocket(...)` (real frames on a
/// loopback socket) or `StubResponse.webSocket(...)` (in memory, no network) talks to.
///
/// ```swift
/// server.enqueue(.webSocket { peer in
///     while let message = try await peer.receive() { try await peer.send(message) }  // an echo
/// })
/// ```
public final class WebSocketPeer: Sendable {
    private let end: any WebSocketPeerEnd

    init(_ end: any WebSocketPeerEnd) {
        self.end = end
    }

    /// The handshake request the client sent (its path, query and header fields).
    public var request: RecordedRequest { end.request }

    /// The next message from the client; `nil` once the client closed (``closeCode`` then says how) or the
    /// connection ended. Throws when the client broke the protocol; on ``MockWebServer``, also after 30 s without a
    /// message (``MockWebServerError/timeout(_:)``) and when the server shuts down.
    public func receive() async throws -> WebSocket.Message? {
        try await end.receive()
    }

    /// Sends a message to the client (compressed when `permessage-deflate` was negotiated); returns once it is
    /// written, throws once the connection has ended or the close handshake started.
    public func send(_ message: WebSocket.Message) async throws {
        try await end.send(message)
    }

    /// Closes with `code` and `reason`, and waits (bounded) for the client's answer.
    public func close(code: WebSocket.CloseCode = .normalClosure, reason: String = "") async throws {
        try await end.close(code: code, reason: reason)
    }

    /// The client's close code, once it closed: `WebSocket.CloseCode.noStatusReceived` for a close frame without
    /// one, `WebSocket.CloseCode.abnormalClosure` when the client ended the connection without a close frame.
    public var closeCode: WebSocket.CloseCode? { end.closeCode }

    /// Injects a fault the client must survive or report typed.
    public func inject(_ fault: WebSocketPeer.Fault) async throws {
        try await end.inject(fault)
    }

    /// What a peer can do wrong on purpose.
    public enum Fault: Sendable, Hashable {
        /// Ends the connection without a close frame, after what was sent before (on ``MockWebServer``, a FIN).
        case dropConnection
        /// Sends these bytes as they are (a malformed frame, a frame the client must refuse), between whole
        /// frames.
        case rawBytes([UInt8])
        /// Sends a text message whose payload is not UTF-8: one final, unmasked, uncompressed frame.
        case invalidUTF8Text
        /// Sends a binary message of this many bytes, in one uncompressed frame (to exceed the client's limit).
        case oversizedMessage(Int)
        /// From now on, never answers the client's close frame.
        case ignoreClose
        /// From now on, never answers the client's pings.
        case ignorePings
    }
}

/// One implementation of a ``WebSocketPeer``: MockWebServer's over a socket, the stub's in memory.
protocol WebSocketPeerEnd: Sendable {
    var request: RecordedRequest { get }
    func receive() async throws -> WebSocket.Message?
    func send(_ message: WebSocket.Message) async throws
    func close(code: WebSocket.CloseCode, reason: String) async throws
    var closeCode: WebSocket.CloseCode? { get }
    func inject(_ fault: WebSocketPeer.Fault) async throws
}
