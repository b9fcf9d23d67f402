import BothamNetworking
import Foundation

/// A complete HTTP/1.1 response as read from a connection, before decoding and redirects.
struct ParsedResponse: Sendable {
    /// The final (non-1xx) status code.
    var statusCode: Int
    /// The header fields in order.
    var headers: HTTPHeaders
    /// The body as framed on the wire (still content-encoded).
    var body: Data
    /// Whether the connection may carry another request.
    var keepAlive: Bool
    /// Where the exchange spent its time (set by the exchange when it hands the response over).
    var timings: HTTPResponse.Timings?
    /// The WebSocket a `101 Switching Protocols` opened on the connection, for a handshake request.
    var webSocket: (any WebSocketChannel)?
}
