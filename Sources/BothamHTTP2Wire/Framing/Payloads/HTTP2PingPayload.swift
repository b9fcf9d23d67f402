extension HTTP2Frame {
    /// What a PING frame carries (RFC 9113 §6.7): 8 opaque octets, and whether it answers a PING.
    package struct PingPayload: Hashable, Sendable {
        /// The 8 octets, as one big-endian integer; an answer repeats them.
        package var opaqueData: UInt64
        /// ACK: this PING answers the peer's.
        package var ack: Bool

        /// A PING of `opaqueData`.
        package init(opaqueData: UInt64, ack: Bool = false) {
            self.opaqueData = opaqueData
            self.ack = ack
        }
    }
}
