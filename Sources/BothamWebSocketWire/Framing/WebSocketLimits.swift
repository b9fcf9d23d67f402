/// The sizes a WebSocket session accepts from its peer; over either one it fails the connection with 1009.
package struct WebSocketLimits: Sendable, Equatable {
    /// The largest frame payload accepted, in bytes, as the frame header announces it.
    package var maxFrameSize: Int = 16 << 20
    /// The largest message accepted, in bytes, after its fragments are joined and inflated.
    package var maxMessageSize: Int = 64 << 20

    /// Limits of `maxFrameSize` per frame and `maxMessageSize` per message (16 MiB and 64 MiB by default).
    package init(maxFrameSize: Int = 16 << 20, maxMessageSize: Int = 64 << 20) {
        self.maxFrameSize = max(0, maxFrameSize)
        self.maxMessageSize = max(0, maxMessageSize)
    }
}
