import BothamNetworking

/// When each step of one ``Exchange`` happened, in monotonic nanoseconds (0: not reached), and the
/// ``HTTPResponse/Timings`` they make. Plain stored instants, set from clock reads the exchange makes anyway where it can
/// (a few per exchange, no allocation until the timings are handed over).
struct ExchangeTimeline {
    /// When the exchange began (a connection asked of the pool).
    var startedAt: UInt64 = 0
    /// When the request's first byte was queued on the connection.
    var sendStartedAt: UInt64 = 0
    /// When the socket took the request's last byte.
    var sentAt: UInt64 = 0
    /// When the response's first byte arrived.
    var firstByteAt: UInt64 = 0

    /// The timings of the exchange (over `protocolVersion`), ending now (`completedAt`: its body's last byte, or 0 for a response handed over
    /// at its head), with the steps of opening `connection` when the exchange opened it (`reused` is `false`).
    func timings(
        opening: ConnectionOpening?, reused: Bool, completedAt: UInt64, protocolVersion: HTTPResponse.ProtocolVersion?
    ) -> HTTPResponse.Timings {
        var timings = HTTPResponse.Timings(reusedConnection: reused, protocolVersion: protocolVersion)
        if !reused, let opening {
            if opening.resolvedAt != 0 { timings.dnsLookup = phase(opening.startedAt, opening.resolvedAt) }
            if opening.connectedAt != 0 { timings.connect = phase(opening.connectStartedAt, opening.connectedAt) }
            if opening.handshakeEndedAt != 0 {
                timings.tlsHandshake = phase(opening.handshakeStartedAt, opening.handshakeEndedAt)
            }
        }
        guard sendStartedAt != 0 else { return timings }
        // A server that answers before the whole request went out: the sending ends at its first byte.
        let sent = sentAt != 0 && (firstByteAt == 0 || sentAt <= firstByteAt) ? sentAt : firstByteAt
        if sent != 0 { timings.requestSent = phase(sendStartedAt, sent) }
        guard firstByteAt != 0 else { return timings }
        timings.waiting = phase(sent, firstByteAt)
        if completedAt != 0 { timings.bodyReceived = phase(firstByteAt, completedAt) }
        return timings
    }

    /// `start` to `end` as offsets from ``startedAt`` (an instant before it, of a connection opened for another
    /// exchange that then went away, counts as the start).
    private func phase(_ start: UInt64, _ end: UInt64) -> HTTPResponse.Timings.Phase {
        HTTPResponse.Timings.Phase(start: offset(start), end: offset(end))
    }

    private func offset(_ instant: UInt64) -> Duration {
        instant > startedAt ? .nanoseconds(Int64(clamping: instant - startedAt)) : .zero
    }
}
