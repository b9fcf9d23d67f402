import BothamNetworking
import Foundation

/// Everything the event loop needs to run one request/response exchange, computed on the caller's task.
struct ExchangePlan: Sendable {
    /// Where to connect: the origin, and the proxy in between if any.
    var route: ConnectionRoute
    /// The TLS context for an `https` origin.
    var tlsContext: TLSContext?
    /// The method token (HEAD responses have no body).
    var method: String
    /// The request line and header fields, serialized for HTTP/1.1 and in parts for HTTP/2.
    var head: RequestHead
    /// The body, sent after the head.
    var body: Data?
    /// A file to stream as the body after the head (in chunks, never loaded whole), and its length.
    var bodyFile: (url: URL, length: Int)?
    /// A body produced while it is sent, and its length (`nil`: sent chunked).
    var bodyStream: (chunks: HTTPBody.Stream.Chunks, length: Int?)?
    /// Whether the request asked for `Connection: close` (the connection is not reused).
    var requestCloses: Bool
    /// Response limits.
    var limits: HTTPParserLimits
    /// Nanoseconds without progress (bytes written or read) before the exchange times out, if limited.
    var idleTimeout: UInt64?
    /// Nanoseconds a new connection may take to connect and finish its TLS handshake, if limited.
    var connectTimeout: UInt64?
    /// The monotonic instant (nanoseconds) the whole call must end by, if any.
    var deadline: UInt64?
    /// Whether to skip idle connections (a retry after a stale one).
    var freshConnection = false
    /// The file the response body is written to as it arrives, instead of memory.
    var responseBodyFile: URL?
    /// Who watches the call's progress, if anyone.
    var progress: TransferProgress.Reporter?
    /// Whether a content-coded response body is decoded once it is complete (its progress is then reported by the
    /// client, in decoded bytes, rather than as it arrives).
    var decodesAfterwards = false
    /// For a streaming call: whether a final response with this status and these headers is streamed to the caller
    /// (a redirect that will be followed is read whole instead). `nil` for calls that do not stream.
    var streams: (@Sendable (_ statusCode: Int, _ headers: HTTPHeaders) -> Bool)?
    /// Whether a `gzip` or `deflate` streamed body is decoded as it arrives.
    var decodesStream = false
    /// The unread bytes a streamed body may buffer before the socket stops being read.
    var streamBufferLimit = HTTPBodyStream.defaultBufferLimit
    /// For a WebSocket handshake: what was offered and how the socket behaves once open.
    var webSocket: WebSocketOffer?
    /// For a WebSocket handshake: whether it may open as an extended CONNECT on a stream of the origin's HTTP/2
    /// connection (RFC 8441), falling back to an HTTP/1.1 upgrade on a connection of its own when that server takes
    /// none (``NativeHTTPClient/planWebSocket(_:for:key:)``). `false`: an HTTP/1.1 upgrade from the start.
    var webSocketTriesHTTP2 = false
    /// The TLS context (`http/1.1` alone in ALPN) of the HTTP/1.1 upgrade a WebSocket handshake that tried HTTP/2
    /// falls back to; `nil` in clear text.
    var webSocketFallbackTLSContext: TLSContext?
}

/// How an exchange ended.
enum ExchangeOutcome: Sendable {
    /// A whole response.
    case response(ParsedResponse)
    /// The head of a response whose body streams to the caller through `body`.
    case streaming(ParsedResponse, body: HTTPBodyStream)
    /// A reused connection failed before any response byte: it had gone stale; the request may be replayed.
    case staleConnection
    /// An HTTP/2 server did not process the request (REFUSED_STREAM, GOAWAY): it may be sent again on another
    /// connection whatever its method.
    case refused
    /// Any other failure.
    case failure(APIClientError)
}
