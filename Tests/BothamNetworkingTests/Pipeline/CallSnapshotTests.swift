import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

/// A client keeps the snapshot its last call took and shares it with the calls after it while nothing changed; these
/// check that any change between two calls is seen by the second.
@Suite("Each call starts from the lists and configuration as they are", .timeLimit(.minutes(1)))
struct CallSnapshotTests {
    @Test("An interceptor appended between two calls runs in the second, and one removed no longer does")
    func listChangesBetweenCallsReachTheNextCall() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let endpoint = uniqueEndpoint()
        let host = URL(string: endpoint)?.host
        let log = Recorder<String>()
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)

        _ = await apiClient.GET("/1")
        let local = apiClient.requestInterceptors.append(
            RecordingRequestInterceptor(name: "local", log: log, host: host))
        _ = await apiClient.GET("/2")
        let global = BothamAPIClient.globalResponseInterceptors.append(
            RecordingResponseInterceptor(name: "global", log: log, host: host))
        defer { BothamAPIClient.globalResponseInterceptors.remove(global) }
        _ = await apiClient.GET("/3")
        apiClient.requestInterceptors.remove(local)
        _ = await apiClient.GET("/4")
        BothamAPIClient.globalResponseInterceptors.remove(global)
        _ = await apiClient.GET("/5")

        #expect(log.values == ["request:local", "request:local", "response:global", "response:global"])
        let intercepted = stub.receivedRequests.map { $0.headers["X-Intercepted-local"] != nil }
        #expect(intercepted == [false, true, true, false, false])
    }

    @Test("A configuration changed between two calls governs the second")
    func configurationChangesBetweenCallsReachTheNextCall() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .response(statusCode: 404))
        let apiClient = BothamAPIClient(baseEndpoint: uniqueEndpoint(), httpClient: stub)

        let before = await apiClient.GET("/missing")
        apiClient.configuration.validation = .acceptAll
        let after = await apiClient.GET("/missing")
        apiClient.configuration.validation = .successfulStatusCodes
        let restored = await apiClient.GET("/missing")

        #expect((try? before.get()) == nil)
        #expect((try? after.get().statusCode) == 404)
        #expect((try? restored.get()) == nil)
    }

    @Test("Calls share a client's snapshot until its configuration or one of its own lists changes")
    func unchangedClientsShareTheirSnapshot() {
        let apiClient = BothamAPIClient(baseEndpoint: uniqueEndpoint(), httpClient: StubHTTPClient())
        // Other tests change the global lists meanwhile, which renews every snapshot: look for two calls with no
        // global change between them.
        var shared: Bool?
        for _ in 0..<1_000 where shared == nil {
            let changes = InterceptorListChanges.current
            let first = apiClient.callStart().pipeline
            let second = apiClient.callStart().pipeline
            if InterceptorListChanges.current == changes { shared = first === second }
        }
        #expect(shared == true)

        let registration = apiClient.interceptors.append(PassingInterceptor())
        #expect(apiClient.callStart().pipeline.interceptors.local.count == 1)
        apiClient.interceptors.remove(registration)
        #expect(apiClient.callStart().pipeline.interceptors.local.isEmpty)
        apiClient.configuration.maxRetries = 3
        #expect(apiClient.callStart().pipeline.settings.maxRetries == 3)
    }

    @Test("A removed interceptor is released with the client's snapshot, even one that uses the client as it goes")
    func removedInterceptorsAreReleased() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: uniqueEndpoint(), httpClient: stub)
        let released = Lock(false)
        var registration: InterceptorList<any HTTPInterceptor>.Registration?
        weak var weakInterceptor: ReleaseTrackingInterceptor?
        do {
            // It holds the client (a cycle while it is in the list) and reads its configuration when released.
            let interceptor = ReleaseTrackingInterceptor {
                _ = apiClient.configuration
                released.withLock { $0 = true }
            }
            weakInterceptor = interceptor
            registration = apiClient.interceptors.append(interceptor)
        }
        _ = await apiClient.GET("/1")
        #expect(weakInterceptor != nil)
        // Released under the client's lock, its `deinit` would wait for that lock for ever: bounded here.
        let toRemove = try #require(registration)
        let removed = await finishesWithin(.seconds(10)) { apiClient.interceptors.remove(toRemove) }

        #expect(removed)
        #expect(weakInterceptor == nil)
        #expect(released.withLock { $0 })
    }
}

/// Calls `next` and returns its response.
private struct PassingInterceptor: HTTPInterceptor {
    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        try await next(request)
    }
}

/// Calls `next`, and runs `onRelease` when it is released.
private final class ReleaseTrackingInterceptor: HTTPInterceptor {
    private let onRelease: @Sendable () -> Void

    init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    deinit { onRelease() }

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        try await next(request)
    }
}
