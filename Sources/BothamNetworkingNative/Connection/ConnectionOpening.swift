/// When each step of opening a ``Connection`` happened, in monotonic nanoseconds (0: not reached), for the
/// ``HTTPResponse/Timings`` of the exchange that opened it. Plain stored instants: recording one costs a clock read and no
/// allocation.
struct ConnectionOpening {
    /// When ``Connection/start()`` began (the lookup starts here).
    var startedAt: UInt64 = 0
    /// When the addresses were known; 0 for an IP literal (no lookup).
    var resolvedAt: UInt64 = 0
    /// When the first connection attempt started.
    var connectStartedAt: UInt64 = 0
    /// When an attempt connected (to the proxy, through one).
    var connectedAt: UInt64 = 0
    /// When the TLS handshake with the origin began (after a proxy tunnel, if any); 0 without TLS.
    var handshakeStartedAt: UInt64 = 0
    /// When the TLS handshake ended (the connection was then ready); 0 without TLS.
    var handshakeEndedAt: UInt64 = 0
}
