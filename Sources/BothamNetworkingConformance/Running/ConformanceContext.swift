import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// What a running check is given: the user's factory and the time scale, with the helpers every check shares.
struct ConformanceContext: Sendable {
    /// Makes the transport under test.
    let makeClient: @Sendable (ConformanceClientConfiguration) -> any HTTPClient
    /// The factor applied to every upper time bound (never to a lower one).
    let timeScale: Double
    /// How late the machine has run tasks since the check started.
    let lag: SchedulingLag
    /// Whether ``server()`` listens on a Unix domain socket file (a new one in the temporary directory each time).
    var overUnixSocket = false

    /// `duration` multiplied by ``timeScale``: a wait's bound (``bounded(within:_:)`` extends it by the scheduling
    /// delay measured while it waits).
    func scaled(_ duration: Duration) -> Duration {
        duration * timeScale
    }

    /// The latest that something which took `elapsed` (and has just ended) may end: `bound` scaled, plus the
    /// scheduling delay measured meanwhile, credited up to `bound` once more: a loaded machine does not fail a
    /// transport, and a transport that holds the machine's threads itself gets no more than that.
    func latest(_ bound: Duration, for elapsed: Duration) -> Duration {
        scaled(bound) + min(lag.measured(since: .now - elapsed), bound)
    }

    /// The value of `operation`, or `nil` when it has not finished within `limit` (scaled, and extended by the
    /// scheduling delay measured while waiting); the operation is then cancelled.
    func bounded<T: Sendable>(
        within limit: Duration, _ operation: @escaping @Sendable () async -> T
    ) async -> T? {
        await BoundedWait.run(within: scaled(limit), extendedBy: lag, operation)
    }

    /// A new loopback `MockWebServer` (or one on a new Unix socket file, ``overUnixSocket``).
    func server() throws(ConformanceFailure) -> MockWebServer {
        do {
            var configuration = MockWebServer.Configuration()
            if overUnixSocket {
                // Short enough for `sun_path` whatever the temporary directory; the server removes it at shutdown.
                let name = "botham-\(UUID().uuidString.prefix(13)).sock"
                configuration.unixSocketPath = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
            }
            return try MockWebServer(configuration: configuration)
        } catch {
            throw ConformanceFailure(reason: "MockWebServer could not start: \(error)")
        }
    }

    /// A client for `server` over a new transport: every status accepted, nothing retried, no call timeout of its
    /// own (so every time limit a check sees is the transport's).
    func apiClient(
        _ server: MockWebServer, limits: TransportLimits = TransportLimits(), redirectPolicy: RedirectPolicy = .follow
    ) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: server.baseURL.absoluteString,
            httpClient: makeClient(ConformanceClientConfiguration(redirectPolicy: redirectPolicy, limits: limits)),
            configuration: .init(maxRetries: 0, validation: .acceptAll)
        )
    }

    /// The outcome of `call` and how long it took, failing the check when it has not ended within `limit` (scaled).
    func timed(
        within limit: Duration, _ what: String,
        _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
    ) async throws(ConformanceFailure) -> (Result<HTTPResponse, APIClientError>, Duration) {
        let bound = scaled(limit)
        let outcome = await bounded(within: limit) {
            let start = ContinuousClock.now
            let result = await call()
            return (result, ContinuousClock.now - start)
        }
        return try require(outcome, "\(what) had not ended after \(bound)")
    }

    /// The outcome of `call`, which must end within `limit` (scaled; default 5 s).
    func send(
        _ what: String, within limit: Duration = .seconds(5),
        _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
    ) async throws(ConformanceFailure) -> Result<HTTPResponse, APIClientError> {
        try await timed(within: limit, what, call).0
    }

    /// The response of `call`, which must succeed within `limit` (scaled; default 5 s).
    func response(
        _ what: String, within limit: Duration = .seconds(5),
        _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
    ) async throws(ConformanceFailure) -> HTTPResponse {
        switch try await send(what, within: limit, call) {
        case .success(let response): return response
        case .failure(let error): throw ConformanceFailure(reason: "\(what) failed: \(error)")
        }
    }

    /// The next request `server` received, within 5 s (scaled).
    func take(_ server: MockWebServer, _ what: String = "the request") async throws(ConformanceFailure)
        -> RecordedRequest
    {
        do {
            return try await server.takeRequest(timeout: scaled(.seconds(5)))
        } catch {
            throw ConformanceFailure(reason: "the server did not receive \(what): \(error)")
        }
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The network failure kind, or `nil` for anything else.
    var networkFailureKind: APIClientError.NetworkFailure.Kind? {
        guard case .failure(.networkError(let failure)) = self else { return nil }
        return failure.kind
    }

    /// Whether this is `APIClientError.timeout`.
    var isTimeout: Bool {
        if case .failure(.timeout) = self { return true }
        return false
    }

    /// Whether this is `APIClientError.cancelled`.
    var isCancelled: Bool {
        if case .failure(.cancelled) = self { return true }
        return false
    }

    /// A short description for a failure reason: the status of a response, or the error.
    var summary: String {
        switch self {
        case .success(let response): return "a \(response.statusCode) response"
        case .failure(.networkError(let failure)): return "networkError(\(failure.kind))"
        case .failure(let error): return "\(error)"
        }
    }
}

/// `count` bytes of a non-uniform pattern (a 251-byte block repeated, so that offsets matter).
func conformancePattern(count: Int) -> Data {
    let block = Data((0..<251).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    var data = Data(capacity: count + block.count)
    while data.count < count { data.append(block) }
    return data.prefix(count)
}
