import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Adds a header naming its generation, for requests to one host only.
private struct GenerationInterceptor: BothamRequestInterceptor {
    let host: String?
    let generation: Int

    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        guard request.url?.host == host else { return request }
        var headers = request.headers
        headers.add("X-Generation", String(generation))
        return request.withHeaders(headers)
    }
}

@Suite("Concurrent calls", .timeLimit(.minutes(1)))
struct ConcurrencyTests {
    @Test("1,000 concurrent calls while global interceptors change: no crash, each call sees one snapshot")
    func concurrentCallsWithChangingGlobals() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let endpoint = uniqueEndpoint()
        let host = URL(string: endpoint)?.host
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)

        let results = await withTaskGroup(of: Result<HTTPResponse, APIClientError>?.self) { group in
            group.addTask {
                for generation in 0..<200 {
                    let first = BothamAPIClient.globalRequestInterceptors.append(
                        GenerationInterceptor(host: host, generation: generation)
                    )
                    let second = BothamAPIClient.globalRequestInterceptors.append(
                        GenerationInterceptor(host: host, generation: generation)
                    )
                    await Task.yield()
                    BothamAPIClient.globalRequestInterceptors.remove(first)
                    BothamAPIClient.globalRequestInterceptors.remove(second)
                }
                return nil
            }
            for index in 0..<1_000 {
                group.addTask { await apiClient.GET("/items/\(index)") }
            }
            var collected: [Result<HTTPResponse, APIClientError>] = []
            for await result in group {
                if let result { collected.append(result) }
            }
            return collected
        }

        #expect(results.count == 1_000)
        #expect(results.allSatisfy { (try? $0.get().statusCode) == 200 })
        let requests = stub.receivedRequests
        #expect(requests.count == 1_000)
        for request in requests {
            let generations = request.headers.values(for: "X-Generation")
            // A snapshot holds both interceptors of one generation, one of them, or none; never a mix.
            #expect(generations.count <= 2)
            #expect(Set(generations).count <= 1)
        }
    }

    @Test("Changing the global lists never affects a call already in flight")
    func inFlightCallsKeepTheirSnapshot() async throws {
        let stub = StubHTTPClient(latency: .clock)
        let gate = AsyncGate()
        stub.stub(with: .text("ok"))
        let endpoint = uniqueEndpoint()
        let host = URL(string: endpoint)?.host
        let log = Recorder<String>()
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)
        apiClient.interceptors.append(GateInterceptor(gate: gate))
        let registration = BothamAPIClient.globalResponseInterceptors.append(
            RecordingResponseInterceptor(name: "global", log: log, host: host)
        )
        let call = Task { await apiClient.GET("/x") }
        await gate.waitUntilEntered()
        BothamAPIClient.globalResponseInterceptors.remove(registration)
        await gate.open()
        _ = await awaitingCancellably(call)
        #expect(log.values == ["response:global"])
    }
}

/// Lets a test hold a call inside the chain until it opens the gate. Both waits end early when their task is cancelled
/// (a test's time limit), so a call that never enters cannot keep the test waiting forever.
actor AsyncGate {
    private let entered = Latch()
    private let opened = Latch()

    func enterAndWait() async {
        entered.open()
        await opened.wait()
    }

    func waitUntilEntered() async {
        await entered.wait()
    }

    func open() {
        opened.open()
    }
}

struct GateInterceptor: HTTPInterceptor {
    let gate: AsyncGate

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        await gate.enterAndWait()
        return try await next(request)
    }
}
