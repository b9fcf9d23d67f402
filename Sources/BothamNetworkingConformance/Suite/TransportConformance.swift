import BothamNetworking

/// The transport conformance suite: every guarantee the transports of this package make, checked against a
/// loopback `MockWebServer`, for a transport of yours (an `HTTPClient` you wrote, or a wrapper around another
/// library).
///
/// Give it a factory for your transport; it calls the factory for each check with the
/// ``ConformanceClientConfiguration`` the check needs (a redirect policy, time and size limits), sends through a
/// `BothamAPIClient` with no retries and every status accepted, and reports each check as passed, failed with a
/// reason, or not applicable:
///
/// ```swift
/// let conformance = TransportConformance { configuration in
///     MyTransport(configuration)  // your HTTPClient, with the check's redirect policy and limits
/// }
/// let report = await conformance.run()
/// print(report)  // "60 passed, 0 failed, 0 not applicable of 60 checks" when it keeps every guarantee
/// ```
///
/// <doc:RunningTheConformanceSuite> has the complete test, with a `MyTransport` that wraps `URLSessionHTTPClient`.
///
/// The checks run one at a time (several measure time). Every wait is bounded: a transport that hangs, or ignores
/// cancellation, fails its check within seconds rather than holding the run. Upper time bounds are multiplied by
/// ``timeScale`` (for slow machines or sanitizer builds) and extended by the scheduling delay measured while the
/// check runs (a probe task's lateness: what a loaded machine adds to every answer); lower bounds (a timeout must
/// not fire early) never are.
public struct TransportConformance: Sendable {
    /// Makes the transport under test for one check.
    public typealias MakeClient = @Sendable (ConformanceClientConfiguration) -> any HTTPClient

    /// The factor applied to every upper time bound; 1 (the default) is what the fault matrix documents, and
    /// values below 1 count as 1.
    public var timeScale: Double
    /// Checks not to run, by ``ConformanceCheck/id`` (`"headers.responseFieldOrder"`; every report prints the ids),
    /// each with the reason, reported as ``ConformanceOutcome/notApplicable(reason:)``.
    public var skipped: [String: String]
    /// The factory.
    public let makeClient: MakeClient
    /// Whether every `MockWebServer` of a check listens on a Unix domain socket (its URLs `http+unix://`) instead of
    /// loopback TCP: the suite over a socket, for a transport that reaches them.
    package var overUnixSocket = false

    /// Creates the suite for the transports `makeClient` makes.
    ///
    /// - Parameters:
    ///   - timeScale: The factor applied to every upper time bound (default 1).
    ///   - skipped: Checks not to run, by ``ConformanceCheck/id``, each with the reason (for example the streaming
    ///     checks, for a transport that does not stream).
    ///   - makeClient: Makes a new transport with the given configuration; called once or twice per check.
    public init(
        timeScale: Double = 1, skipping skipped: [String: String] = [:],
        makeClient: @escaping MakeClient
    ) {
        self.timeScale = timeScale
        self.skipped = skipped
        self.makeClient = makeClient
    }

    /// Every check, grouped by ``ConformanceArea``, in the order ``run()`` runs them.
    public static let checks: [ConformanceCheck] = [
        .methods, .requestBodies, .query, .responses, .decodedBodies,
        .requestFieldsAsGiven, .repeatedResponseFields, .caseInsensitiveNames, .responseFieldOrder,
        .redirectPostBecomesGet, .redirectKeepsMethodAndBody, .redirectStreamedBody,
        .redirectSameOriginKeepsCredentials,
        .redirectCrossOriginStripsCredentials, .redirectStrippedStaysStripped, .redirectLoop, .redirectFollowAtMost,
        .redirectDoNotFollow,
        .requestTimeout, .idleTimeout, .idleTimeoutResetByData, .attemptTimeout, .maxAttemptTimeout, .withinTimeout,
        .cancelledBeforeStart, .cancelWhileWaiting, .cancelMidBody,
        .faultConnectionRefused, .faultClosedBeforeResponse, .faultReset, .faultDropAfterHead, .faultDropMidBody,
        .faultShortBody, .faultTruncatedChunkedBody, .faultMalformedStatusLine, .faultInvalidHeaderLine,
        .faultOversizedHead, .faultUnauthorizedIsAResponse,
        .maxResponseBytes, .maxFileResponseBytes,
        .uploadFromFile, .redirectResendsFile, .downloadToFile, .transferProgress,
        .streamHeadBeforeBody, .streamLargeBody, .streamDropMidStream, .streamIdleTimeout, .streamEarlyExit,
        .streamCancel,
        .webSocketEcho, .webSocketClientCloseCode, .webSocketServerCloseCode, .webSocketProtocolError,
        .webSocketInvalidUTF8, .webSocketMessageTooBig, .webSocketDropped, .webSocketCloseTimeout, .webSocketPing,
        .webSocketDeadPeer,
    ]

    /// The checks of `area`, in order.
    public static func checks(in area: ConformanceArea) -> [ConformanceCheck] {
        checks.filter { $0.area == area }
    }

    /// Runs every check, one at a time.
    public func run() async -> ConformanceReport {
        await run(only: Self.checks)
    }

    /// Runs `checks`, one at a time, in order.
    public func run(only checks: [ConformanceCheck]) async -> ConformanceReport {
        var results: [ConformanceResult] = []
        for check in checks { results.append(await run(check)) }
        return ConformanceReport(results: results)
    }

    /// The longest one check may take, before scaling: the longest check takes a few seconds.
    static let checkLimit = Duration.seconds(20)

    /// Runs one check (or reports it not applicable when it is in ``skipped``).
    public func run(_ check: ConformanceCheck) async -> ConformanceResult {
        if let reason = skipped[check.id] {
            return ConformanceResult(check: check, outcome: .notApplicable(reason: reason), duration: .zero)
        }
        let lag = SchedulingLag()
        defer { lag.stop() }
        let context = ConformanceContext(
            makeClient: makeClient, timeScale: max(timeScale, 1), lag: lag, overUnixSocket: overUnixSocket)
        let limit = context.scaled(Self.checkLimit)
        let start = ContinuousClock.now
        let outcome = await BoundedWait.run(within: limit, extendedBy: lag) { () async -> ConformanceOutcome in
            do {
                try await check.body(context)
                return .passed
            } catch let failure as ConformanceFailure {
                return .failed(reason: failure.reason)
            } catch {
                return .failed(reason: "\(error)")
            }
        }
        return ConformanceResult(
            check: check, outcome: outcome ?? .failed(reason: "the check had not ended after \(limit)"),
            duration: ContinuousClock.now - start)
    }
}
