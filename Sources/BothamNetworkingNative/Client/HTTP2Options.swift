import BothamHTTP2Wire
import BothamNetworking

extension NativeHTTPClient {
    /// How a ``NativeHTTPClient`` watches its HTTP/2 connections: ``Configuration/http2``.
    ///
    /// A server must acknowledge our SETTINGS soon after the connection opens (RFC 9113 §6.5.3): one that does not
    /// within ``settingsTimeout`` is closed with SETTINGS_TIMEOUT and its calls fail. With
    /// ``keepAlivePingInterval`` set, a connection with calls in flight that has heard nothing for that long sends
    /// a PING; no answer within ``pingTimeout`` means the connection is dead (a NAT that forgot it, a peer that
    /// vanished): it is closed and its calls fail with `connectionLost` rather than wait for their own timeouts.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.httpVersion = .preferHTTP2
    /// configuration.http2.keepAlivePingInterval = .seconds(30)  // long event streams behind NATs
    /// ```
    public struct HTTP2Options: Sendable, Hashable {
        /// How long a connection with calls in flight may hear nothing before it sends a PING; `nil` (the
        /// default): no keep-alive PINGs.
        public var keepAlivePingInterval: Duration?
        /// How long a keep-alive PING may wait for its answer (10 s).
        public var pingTimeout = Duration.seconds(10)
        /// How many HTTP/2 connections one origin may have open (1, as RFC 9113 §9.1 asks of clients): a call that
        /// finds every stream of every connection in use waits for one to end, or opens another connection while
        /// there are fewer than this. Connections the server is closing (GOAWAY) do not count. Raise it for a
        /// server whose `SETTINGS_MAX_CONCURRENT_STREAMS` is below the calls you keep in flight; the total stays
        /// within ``Configuration/maxConnectionsPerHost``.
        public var maxConnectionsPerOrigin = 1
        /// How long the server may take to acknowledge our SETTINGS (10 s).
        public var settingsTimeout = Duration.seconds(10)
        /// The request fields this redactor hides go as never-indexed literals (RFC 7541 §7.1.3): never stored in
        /// HPACK's tables, here or in any intermediary, so a compression side channel cannot probe them. The
        /// default redactor's: `Authorization`, `Proxy-Authorization`, `Cookie`, API keys, and names containing
        /// `token`, `secret`, `password`, `signature`.
        public var neverIndexed = Redactor()

        /// The defaults.
        public init() {}
    }
}
