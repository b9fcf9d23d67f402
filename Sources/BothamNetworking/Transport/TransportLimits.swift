/// The time limits and size limits of a transport, with one meaning on ``URLSessionHTTPClient`` and on
/// `NativeHTTPClient`: both configurations hold one as `limits`.
///
/// ```swift
/// var limits = TransportLimits()
/// limits.idleTimeout = .seconds(15)     // a server silent for 15 s ends the attempt
/// limits.attemptTimeout = .seconds(30)  // one attempt: every redirect and the whole body
/// limits.maxResponseBytes = 8 << 20     // bodies held in memory
/// let transport = URLSessionHTTPClient(configuration: .init(limits: limits))
/// ```
///
/// An *attempt* is one ``HTTPClient/send(_:)`` of the transport: the request, every redirect it follows, and the
/// whole response body (for a streamed body, ``ResponseBodyDestination/stream``, until its head arrives; the body
/// then has only the idle timeout). ``BothamAPIClient``'s retries are new attempts: no transport limit spans them.
///
/// The settings, and what running out of each does:
/// - ``connectTimeout`` (10 s): opening a new connection, TCP and the TLS handshake. Ends with
///   ``APIClientError/timeout``.
/// - ``idleTimeout`` (60 s): the longest time without a byte sent or received, connecting included. Time spent
///   waiting for the reader of a streamed body to make room does not count. Ends with ``APIClientError/timeout``.
/// - ``attemptTimeout`` (60 s): the whole attempt, for a request without a ``HTTPRequest/timeout`` of its own.
///   Ends with ``APIClientError/timeout``.
/// - ``maxAttemptTimeout`` (none): the whole attempt, whatever the request's own timeout asks. Ends with
///   ``APIClientError/timeout``.
/// - ``maxResponseBytes`` (64 MiB): a body held in memory, counted after gzip/deflate/br decoding. Ends with
///   `.networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))` as soon as it is known, the rest unread.
/// - ``maxFileResponseBytes`` (none): a body written to a file (``HTTPRequest/responseDestination``), which is never
///   held in memory. Ends like ``maxResponseBytes``, the partial file removed.
///
/// Streamed bodies have no size limit: back-pressure keeps their memory bounded. The one exception is
/// ``URLSessionHTTPClient`` on Linux, whose back-pressure would stall every other call of the process: there, while
/// another call is in flight, a stream's unread bytes are bounded by ``maxResponseBytes`` instead.
///
/// ``HTTPRequest/timeout``, when set, replaces both ``attemptTimeout`` and ``idleTimeout`` for that request (so a
/// streamed body may go that long between chunks); ``maxAttemptTimeout`` still caps it.
///
/// Where a platform cannot do one of them: URLSession (FoundationNetworking on Linux, and on Apple platforms) has no
/// connect phase a delegate can see, so ``URLSessionHTTPClient`` does not apply ``connectTimeout``; a connection
/// that cannot be made ends with ``APIClientError/timeout`` after ``idleTimeout`` instead (or earlier, at the
/// attempt's limit). FoundationNetworking sets no connect limit of its own, so libcurl's built-in 300 s never comes
/// first. Every other limit is enforced by the transports themselves, sub-second values included.
public struct TransportLimits: Sendable, Hashable {
    /// How long opening a new connection may take: the TCP connection and the TLS handshake. `nil` sets no such
    /// limit (the idle timeout and the attempt's limits still bound connecting). Default: 10 seconds.
    ///
    /// `NativeHTTPClient` only: see the type's documentation for what ``URLSessionHTTPClient`` does instead.
    public var connectTimeout: Duration?
    /// The longest time the attempt may go without a byte sent or received, connecting included; waiting for the
    /// reader of a streamed body does not count. A request's own ``HTTPRequest/timeout`` replaces it. `nil` sets no
    /// such limit. Default: 60 seconds.
    public var idleTimeout: Duration?
    /// How long one attempt may take, from the start to the last byte of the body, every redirect included (a
    /// streamed body: until its head arrives), when the request has no ``HTTPRequest/timeout`` of its own. `nil`
    /// sets no such limit. Default: 60 seconds.
    public var attemptTimeout: Duration?
    /// The most any attempt may take, even when its ``HTTPRequest/timeout`` asks for more; it caps
    /// ``attemptTimeout`` too. `nil` (the default) sets no cap.
    public var maxAttemptTimeout: Duration?
    /// The largest response body held in memory, in bytes, counted after gzip/deflate/br decoding; a bigger one
    /// ends the attempt with `.networkError(APIClientError.NetworkFailure(kind: .responseTooLarge))` as soon as it is known,
    /// without reading the rest. `nil` sets no limit. Default: 64 MiB.
    public var maxResponseBytes: Int?
    /// The largest response body written to a file (``HTTPRequest/responseDestination``), in bytes as received; a
    /// bigger one ends the attempt like ``maxResponseBytes`` and leaves no file. `nil` (the default) sets no limit:
    /// such a body is never held in memory.
    public var maxFileResponseBytes: Int?

    /// Creates limits; every argument has the default documented on its property.
    public init(
        connectTimeout: Duration? = .seconds(10),
        idleTimeout: Duration? = .seconds(60),
        attemptTimeout: Duration? = .seconds(60),
        maxAttemptTimeout: Duration? = nil,
        maxResponseBytes: Int? = 64 << 20,
        maxFileResponseBytes: Int? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.attemptTimeout = attemptTimeout
        self.maxAttemptTimeout = maxAttemptTimeout
        self.maxResponseBytes = maxResponseBytes
        self.maxFileResponseBytes = maxFileResponseBytes
    }

    /// How long an attempt at `request` may take: its own timeout, or ``attemptTimeout``, capped by
    /// ``maxAttemptTimeout``; `nil` for no limit.
    package func attemptLimit(for request: HTTPRequest) -> Duration? {
        switch (request.timeout ?? attemptTimeout, maxAttemptTimeout) {
        case (let own?, let cap?): return min(own, cap)
        case (let own?, nil): return own
        case (nil, let cap?): return cap
        case (nil, nil): return nil
        }
    }

    /// How long an attempt at `request` may go without a byte moving: its own timeout, or ``idleTimeout``.
    package func idleLimit(for request: HTTPRequest) -> Duration? {
        request.timeout ?? idleTimeout
    }

    /// The largest body `request` may receive: ``maxFileResponseBytes`` when it goes to a file, otherwise
    /// ``maxResponseBytes``; `nil` for no limit.
    package func bodyLimit(for request: HTTPRequest) -> Int? {
        request.responseDestination.fileURL == nil ? maxResponseBytes : maxFileResponseBytes
    }
}
