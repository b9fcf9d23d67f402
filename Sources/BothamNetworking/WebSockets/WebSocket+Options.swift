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
        /// Whether and how the socket opens again when its connection is lost while ``WebSocket/messages`` is read.
        /// Default `nil`: it does not.
        public var reconnection: WebSocket.Reconnection?

        /// Options with the given values; every one has a default.
        public init(
            maxMessageSize: Int = 16 << 20, compression: Bool = true, pingInterval: Duration? = nil,
            closeTimeout: Duration = .seconds(10), reconnection: WebSocket.Reconnection? = nil
        ) {
            self.maxMessageSize = maxMessageSize
            self.compression = compression
            self.pingInterval = pingInterval
            self.closeTimeout = closeTimeout
            self.reconnection = reconnection
        }
    }
}

extension WebSocket {
    /// How a ``WebSocket`` opens again after its connection is lost, while its messages are read: the same
    /// handshake after a delay that doubles while attempts fail (<doc:WebSockets> says which endings reopen).
    public struct Reconnection: Sendable, Hashable {
        /// Failed attempts in a row before giving up (5). A connection that ends before its first message, and
        /// before it has been open for ``maxDelay``, counts as a failed attempt (as `EventSource` counts one that
        /// ends before an event).
        public var maxAttempts: Int
        /// The wait before the first attempt (1 s).
        public var initialDelay: Duration
        /// The longest wait between attempts (30 s).
        public var maxDelay: Duration

        /// A policy; every value has a default.
        public init(maxAttempts: Int = 5, initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30)) {
            self.maxAttempts = maxAttempts
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
        }

        /// The wait before attempt `attempt` (1-based): `initialDelay` doubled per earlier failure, at most
        /// `maxDelay` (the retry policy's backoff).
        func delay(beforeAttempt attempt: Int) -> Duration {
            .exponential(base: initialDelay, multiplier: 2, maximum: maxDelay, step: attempt)
        }
    }
}
