import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// How long past its limit a timeout may fire (docs/FaultMatrix.md: "timeout + < 1.2 s"), before scaling.
let timeoutSlack = Duration.milliseconds(1_200)

extension ConformanceContext {
    /// Checks that `call` ends with `.timeout` no earlier than 80 % of `limit` and no later than `limit` plus the
    /// slack (scaled); the wait ends half a second after that, so a transport that never times out fails promptly.
    func expectTimeout(
        _ what: String, limit: Duration,
        _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
    ) async throws(ConformanceFailure) {
        let (result, duration) = try await timed(within: limit + timeoutSlack + .milliseconds(500), what, call)
        let latest = self.latest(limit + timeoutSlack, for: duration)
        try expect(result.isTimeout, "\(what) ended with \(result.summary), not .timeout")
        try expect(duration >= limit * 0.8, "\(what) timed out after \(duration), before its \(limit) limit")
        try expect(duration < latest, "\(what) timed out after \(duration), later than \(latest)")
    }
}

extension ConformanceCheck {
    /// A request's own timeout ends a stalled attempt with `.timeout`.
    package static let requestTimeout = ConformanceCheck(
        .timeouts, "requestTimeout", "a stalled server ends with .timeout at the request's own timeout"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.noResponse))
        let apiClient = context.apiClient(server)
        let request = apiClient.request(.get, "/stall").withTimeout(.milliseconds(400))

        try await context.expectTimeout("a 0.4 s request timeout", limit: .milliseconds(400)) {
            await apiClient.send(request)
        }
    }

    /// `idleTimeout` ends an attempt that receives nothing for that long.
    package static let idleTimeout = ConformanceCheck(
        .timeouts, "idleTimeout", "idleTimeout ends an attempt that receives nothing for that long with .timeout"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.noResponse))
        let apiClient = context.apiClient(server, limits: TransportLimits(idleTimeout: .milliseconds(400)))

        try await context.expectTimeout("a 0.4 s idle timeout", limit: .milliseconds(400)) {
            await apiClient.GET("/stall")
        }
    }

    /// Bytes arriving keep an attempt alive: the idle timeout is not a limit on the whole attempt.
    package static let idleTimeoutResetByData = ConformanceCheck(
        .timeouts, "idleTimeoutResetByData",
        "a body that keeps arriving outlives idleTimeout: the idle limit is between bytes, not on the whole attempt"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        // 8 bytes, one every 100 ms: 0.8 s in all, never 0.45 s without a byte.
        server.enqueue(MockResponse().withBody("abcdefgh").throttled(bytes: 1, per: .milliseconds(100)))
        let apiClient = context.apiClient(server, limits: TransportLimits(idleTimeout: .milliseconds(450)))

        let response = try await context.response("a dripping body under a 0.45 s idle timeout") {
            await apiClient.GET("/drip")
        }
        try expect(response.body == Data("abcdefgh".utf8), "the body came back as \(response.body.count) bytes")
    }

    /// `attemptTimeout` bounds the whole attempt, body included.
    package static let attemptTimeout = ConformanceCheck(
        .timeouts, "attemptTimeout", "attemptTimeout ends an attempt whose body drips past it with .timeout"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withBody(conformancePattern(count: 4096)).throttled(bytes: 64, per: .milliseconds(100)))
        let apiClient = context.apiClient(server, limits: TransportLimits(attemptTimeout: .milliseconds(500)))

        try await context.expectTimeout("a 0.5 s attempt timeout", limit: .milliseconds(500)) {
            await apiClient.GET("/drip")
        }
    }

    /// `maxAttemptTimeout` caps a request that asks for a longer timeout of its own.
    package static let maxAttemptTimeout = ConformanceCheck(
        .timeouts, "maxAttemptTimeout", "maxAttemptTimeout caps a request whose own timeout is longer"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.noResponse))
        let apiClient = context.apiClient(server, limits: TransportLimits(maxAttemptTimeout: .milliseconds(400)))
        let request = apiClient.request(.get, "/stall").withTimeout(.seconds(30))

        try await context.expectTimeout("a 30 s request under a 0.4 s maxAttemptTimeout", limit: .milliseconds(400)) {
            await apiClient.send(request)
        }
    }

    /// A response that arrives inside the timeout is unaffected by it.
    package static let withinTimeout = ConformanceCheck(
        .timeouts, "withinTimeout", "a response that arrives inside the timeout is unaffected by it"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("ok").withHeadersDelay(.milliseconds(150)))
        let apiClient = context.apiClient(server)
        let request = apiClient.request(.get, "/quick").withTimeout(.milliseconds(1_500))

        let response = try await context.response("a 0.15 s answer under a 1.5 s timeout") {
            await apiClient.send(request)
        }
        try expect(response.body == Data("ok".utf8), "the body came back as \(response.body.count) bytes")
    }
}
