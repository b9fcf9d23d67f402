extension WebSocket {
    /// How a ``WebSocket`` behaves once open.
    public struct Options: Sendable, Hashable {
        /// The largest message accepted, in bytes (after decompression); a bigger one closes the socket with
        /// `1009` and fails with `responseTooLarge`. Default 16 MiB.
        public var maxMessageSize: Int
        /// Whether `permessage-deflate` (RFC 7692) is offered; the server decides. Default `true`.
        public var compression: Bool
        /// When set, a ping is sent whenever the socket was quiet this long, and a peer that does not answer within
        /// the same time is taken as dead (the socket fails with `connectionLost`). Default `nil`: no keep-alive.
        public var pingInterval: Duration?
        /// How long ``WebSocket/close(code:reason:)`` waits for the peer's close frame before closing the connection
        /// anyway. Default 10 s.
        public var closeTimeout: Duration

        /// Options with the given values; every one has a default.
        public init(
            maxMessageSize: Int = 16 << 20, compression: Bool = true, pingInterval: Duration? = nil,
            closeTimeout: Duration = .seconds(10)
        ) {
            self.maxMessageSize = maxMessageSize
            self.compression = compression
            self.pingInterval = pingInterval
            self.closeTimeout = closeTimeout
        }
    }
}
