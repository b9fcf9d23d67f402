extension HTTPResponse {
    /// Where one exchange spent its time, phase by phase, as the transport measured it: finding the server, connecting,
    /// the TLS handshake, sending the request, waiting for the answer (the time to first byte) and receiving the body.
    ///
    /// An exchange is one request and its response on one connection: the last hop of a call the transport redirected,
    /// one attempt of a call that is retried. Every phase is an offset from the start of the exchange (when the
    /// transport began it, waiting for a free connection included) on a monotonic clock, so the phases of one exchange
    /// can be compared and ordered; a phase the exchange did not go through, or that the transport cannot see, is
    /// `nil`.
    ///
    /// What each transport reports:
    ///
    /// | Phase | `NativeHTTPClient` | `URLSessionHTTPClient` |
    /// |---|---|---|
    /// | ``dnsLookup`` | the lookup, or ≈0 for an answer from its DNS cache; `nil` for an IP literal | `nil` |
    /// | ``connect`` | first Happy Eyeballs attempt started → one connected (to the proxy, through one) | `nil` |
    /// | ``tlsHandshake`` | the handshake with the origin (`https`) | `nil` |
    /// | ``requestSent`` | first byte written → the socket took the last | `nil` |
    /// | ``waiting`` | request sent → first response byte | start of the hop → response head |
    /// | ``bodyReceived`` | first response byte → last body byte (`nil` when streamed) | head → body complete |
    /// | ``reusedConnection`` | `true` or `false` | `nil` (it cannot tell) |
    /// | `protocolVersion` | ``HTTPResponse/ProtocolVersion/http1_1`` or ``HTTPResponse/ProtocolVersion/http2`` | `nil` (it cannot tell) |
    ///
    /// - `NativeHTTPClient` measures every phase itself, with a few monotonic clock reads per exchange. A kept-alive
    ///   connection has no lookup, connect or handshake (``reusedConnection`` is `true`). Through a proxy, ``connect``
    ///   is the connection to the proxy, and the tunnel (`CONNECT` or SOCKS5) lies between it and ``tlsHandshake``.
    /// - `URLSessionHTTPClient` sees neither the lookup, the connection nor the request being sent: FoundationNetworking
    ///   on Linux never calls `urlSession(_:task:didFinishCollecting:)`, so it reports what its own delegate callbacks
    ///   show, the same on every platform: ``waiting`` from the start of the hop (a redirect it follows starts a new
    ///   one) to the response head, and ``bodyReceived`` from there to the end of the body.
    /// - A streamed response is handed over at its head, so its timings end with ``waiting``.
    /// - Transports of your own (and `StubHTTPClient`) report none: ``HTTPResponse/timings`` is then `nil`.
    ///
    /// Read it as ``HTTPResponse/timings``; ``MetricsInterceptor/Report/timings`` collects it per attempt of a call,
    /// ``LoggingInterceptor`` shows it (``description``) at ``LoggingInterceptor/Detail/headers``, and a HAR recording
    /// of `RecordingHTTPClient` fills its `timings` from it.
    public struct Timings: Sendable, Hashable {
        /// One phase: when it began and when it ended, from the start of the exchange.
        public struct Phase: Sendable, Hashable {
            /// When the phase began, from the start of the exchange.
            public var start: Duration
            /// When the phase ended, from the start of the exchange (never before ``start``).
            public var end: Duration

            /// A phase from `start` to `end` (an `end` before `start` is taken as `start`).
            package init(start: Duration, end: Duration) {
                self.start = start
                self.end = max(start, end)
            }

            /// How long the phase took.
            public var duration: Duration { end - start }
        }

        /// Finding the server's addresses: the DNS lookup, or the client's DNS cache (a phase of about zero). `nil` for
        /// an IP literal, a reused connection, or a transport that cannot see it.
        public var dnsLookup: Phase?
        /// Connecting TCP: from the first connection attempt until one connected (Happy Eyeballs races several).
        public var connect: Phase?
        /// The TLS handshake (`https` only).
        public var tlsHandshake: Phase?
        /// Sending the request: from its first byte written until the socket took its last. When the response began
        /// before the request was all sent, it ends at the first response byte.
        public var requestSent: Phase?
        /// Waiting for the server: from the end of the request until the first byte of the response arrived, the time
        /// to first byte. When the transport cannot see the request being sent, from the start of the exchange until
        /// the response head.
        public var waiting: Phase?
        /// Receiving the response: from its first byte (or head) until the last byte of its body. `nil` for a streamed
        /// body (the exchange is handed over at the head).
        public var bodyReceived: Phase?
        /// Whether the exchange ran on a kept-alive connection (then there was no lookup, connect or handshake); `nil`
        /// when the transport cannot tell.
        public var reusedConnection: Bool?
        /// The version of HTTP the exchange was carried over; `nil` when the transport cannot tell.
        public var protocolVersion: HTTPResponse.ProtocolVersion?

        /// Timings with the given phases; every argument defaults to "not measured".
        package init(
            dnsLookup: Phase? = nil,
            connect: Phase? = nil,
            tlsHandshake: Phase? = nil,
            requestSent: Phase? = nil,
            waiting: Phase? = nil,
            bodyReceived: Phase? = nil,
            reusedConnection: Bool? = nil,
            protocolVersion: HTTPResponse.ProtocolVersion? = nil
        ) {
            self.dnsLookup = dnsLookup
            self.connect = connect
            self.tlsHandshake = tlsHandshake
            self.requestSent = requestSent
            self.waiting = waiting
            self.bodyReceived = bodyReceived
            self.reusedConnection = reusedConnection
            self.protocolVersion = protocolVersion
        }

        /// The time to first byte: how long ``waiting`` took.
        package var timeToFirstByte: Duration? { waiting?.duration }

        /// The measured phases in the order an exchange goes through them, each with its name (`dns`, `connect`,
        /// `tls`, `send`, `wait`, `receive`).
        package var phases: [(name: String, phase: Phase)] {
            let all: [(String, Phase?)] = [
                ("dns", dnsLookup), ("connect", connect), ("tls", tlsHandshake), ("send", requestSent),
                ("wait", waiting), ("receive", bodyReceived),
            ]
            return all.compactMap { name, phase in phase.map { (name: name, phase: $0) } }
        }
    }
}
