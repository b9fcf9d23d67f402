import BothamHTTP2Wire

/// One open stream of an ``HTTP2ClientConnection``: its two windows and how far each side has got.
struct HTTP2StreamState: Hashable, Sendable {
    /// Request body octets we may still send (may go negative when the server lowers its initial window, §6.9.2).
    var sendWindow: Int
    /// Response body octets the server may still send.
    var receiveWindow: HTTP2ReceiveWindow
    /// Whether we sent END_STREAM (the request is complete).
    var localEnded = false
    /// Whether the server sent END_STREAM (the response is complete).
    var remoteEnded = false
    /// Whether the final (non-1xx) response head has arrived.
    var hasFinalHead = false
    /// The response's `content-length`, checked against the DATA that arrives (§8.1.1).
    var expectedLength: Int?
    /// Response body octets received.
    var receivedLength = 0
    /// Whether the request is a HEAD: its response has no content, whatever its `content-length` says.
    var isHeadRequest = false
    /// 1xx responses received, bounded against a server that sends them without end.
    var informationalCount = 0

    /// The most 1xx responses a stream takes before its final one.
    static let maxInformationalResponses = 32
}
