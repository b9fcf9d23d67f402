extension HTTP2Frame {
    /// What a SETTINGS frame carries (RFC 9113 §6.5): the sender's parameters, or the acknowledgement of the
    /// peer's (the ACK flag, with an empty payload).
    package enum SettingsPayload: Hashable, Sendable {
        /// The parameters in the order sent, unknown identifiers included (they are ignored when applied).
        case parameters([HTTP2Setting])
        /// ACK: the sender applied the peer's last SETTINGS.
        case ack
    }
}
