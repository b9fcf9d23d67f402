import BothamNetworking

/// Injects the faults of a ``Schedule`` into the requests a matcher accepts: delays, network failures, truncated
/// bodies and error statuses (see ``Fault``), so a staging build can rehearse what a bad network does to the app
/// — retries, timeouts, error screens — against its real servers. A staging app links this module for it; it does
/// nothing unless given a schedule.
///
/// ```swift
/// let chaos = ChaosInterceptor(
///     .random(seed: 7, [.fail(.connectionLost): 0.05, .delay(.seconds(3)): 0.10, .truncateBody: 0.02]),
///     matching: { $0.path.hasPrefix("/feed") })
/// apiClient.networkInterceptors.append(chaos)   // innermost: every send, after every other interceptor
/// ```
///
/// - **Where:** as a network interceptor (`BothamAPIClient.networkInterceptors`) every send draws, and the faults
///   look to every other interceptor (cache, retry, logging) like the transport's own; in
///   `BothamAPIClient.interceptors` it draws once per attempt, at its place in the onion.
/// - **Which requests:** `matching` scopes it (a path prefix, a host, a header a debug menu sets); a request it does
///   not accept passes untouched and draws nothing, so the schedule of the others does not depend on it.
/// - **Reproducible:** a seeded schedule gives the *n*-th matched request the same fault on every run (concurrent
///   requests take their entries in the order they reach the interceptor); ``schedule`` can be replaced at run
///   time (a debug menu), which starts the new schedule from its beginning.
/// - **Time:** delays wait on the call's clock (`HTTPCallContext.clock`, the client's
///   `BothamAPIClient.Configuration.clock`), as the retry loop's sleeps do: real and cancellable by default, and a
///   test's ``VirtualClock`` decides when they end.
/// - **Observable:** `onFault` hears each fault as it is injected, to log it; failures it makes carry the ``Fault``
///   as their underlying error.
public final class ChaosInterceptor: Sendable {
    private let cursor: Lock<ChaosCursor>
    private let matches: @Sendable (HTTPRequest) -> Bool
    private let onFault: (@Sendable (Fault, HTTPRequest) -> Void)?

    /// Creates an interceptor.
    ///
    /// - Parameters:
    ///   - schedule: Which fault each matched request gets; ``Schedule/off`` (the default) injects none.
    ///   - matching: Which requests the schedule applies to (the request as this interceptor is given it); every
    ///     request by default. A `RequestMatcher` of the testing library fits: `matching: matcher.matches`.
    ///   - onFault: Told of each fault as it is injected, with the request it hits (for a log line).
    public init(
        _ schedule: Schedule = .off,
        matching: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
        onFault: (@Sendable (Fault, HTTPRequest) -> Void)? = nil
    ) {
        cursor = Lock(ChaosCursor(schedule))
        matches = matching
        self.onFault = onFault
    }

    /// The schedule in use. Setting it starts the new schedule from its first entry (a seeded one from its seed).
    public var schedule: Schedule {
        get { cursor.withLock { $0.schedule } }
        set { cursor.withLock { $0 = ChaosCursor(newValue) } }
    }

    /// The fault for `request`: its schedule entry when the matcher accepts it (one draw), else none.
    func fault(for request: HTTPRequest) -> Fault? {
        guard matches(request) else { return nil }
        return cursor.withLock { $0.next() }
    }

    /// Waits `duration` on `clock`; a failed sleep (cancellation) is `APIClientError.cancelled`.
    func sleep(_ duration: Duration, on clock: any HTTPClock) async throws(APIClientError) {
        do {
            try await clock.sleep(for: duration)
        } catch {
            throw .cancelled
        }
    }

    /// Tells `onFault`.
    func report(_ fault: Fault, _ request: HTTPRequest) {
        onFault?(fault, request)
    }
}

extension ChaosInterceptor: HTTPInterceptor {
    /// Injects `request`'s scheduled fault, if any; otherwise passes it on untouched.
    public func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        guard let fault = fault(for: request) else { return try await next(request) }
        report(fault, request)
        switch fault {
        case .delay(let duration):
            if let timeout = request.timeout, duration >= timeout {
                try await sleep(timeout, on: context.clock)
                throw APIClientError.timeout
            }
            try await sleep(duration, on: context.clock)
            return try await next(request)
        case .fail(let kind):
            throw APIClientError.networkError(APIClientError.NetworkFailure(kind: kind, underlying: fault))
        case .truncateBody:
            return try ChaosTruncation.truncating(try await next(request))
        case .status(let code):
            return HTTPResponse(statusCode: code, request: request)
        }
    }
}
