import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

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
}
