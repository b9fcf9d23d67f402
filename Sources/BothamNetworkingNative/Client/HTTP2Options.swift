extension NativeHTTPClient {
    /// How a ``NativeHTTPClient`` watches its HTTP/2 connections: ``Configuration/http2``.
    ///
    /// A server must acknowledge our SETTINGS soon after the connection opens (RFC 9113 §6.5.3): one that does not
    /// within ``settingsTimeout`` is closed with SETTINGS_TIMEOUT and its calls fail. With
    /// ``keepAlivePingInterval`` set, a connection with calls in flight that has heard nothing for that long sends
    /// a PING; no answer within ``pingTimeout`` means the connection is dead (a NAT that forgot it, a peer that
    /// vanished): it is closed and its calls fail with `connectionLost` rather than wait for their own timeouts
    /// (`NativeHTTP2KeepAliveTests`).
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
        /// How long the server may take to acknowledge our SETTINGS (10 s).
        public var settingsTimeout = Duration.seconds(10)

        /// The defaults.
        public init() {}
    }
}
