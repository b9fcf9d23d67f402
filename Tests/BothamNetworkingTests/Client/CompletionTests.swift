import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Dispatch
import Foundation
import Testing

@Suite("Completion handlers", .timeLimit(.minutes(1)))
struct CompletionTests {
    @Test("The completion handler is called once with the result")
    func completionIsCalledOnce() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("hello"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let results = Recorder<Result<HTTPResponse, APIClientError>>()
        let call = apiClient.GET("/x") { result in results.append(result) }
        await call.wait()
        let recorded = results.values
        #expect(recorded.count == 1)
        #expect(try recorded.first?.get().body == Data("hello".utf8))
    }

    @Test("Cancelling the handle ends the call with cancelled, and the completion still runs once")
    func cancellingTheHandle() async throws {
        let stub = StubHTTPClient(latency: .clock)
        stub.stub(with: StubResponse.text("late").delayed(by: .seconds(3_600)))
        let apiClient = BothamAPIClient(baseEndpoint: "https://h.example", httpClient: stub)
        let results = Recorder<Result<HTTPResponse, APIClientError>>()
        let call = apiClient.GET("/x") { result in results.append(result) }
        while stub.receivedRequests.isEmpty { await Task.yield() }
        call.cancel()
        await call.wait()
        let recorded = results.values
        #expect(recorded.count == 1)
        guard case .failure(.cancelled) = recorded.first else {
            Issue.record("expected cancelled, got \(recorded)")
            return
        }
        #expect(call.isCancelled)
    }

    @Test("Completions are delivered on the configured queue")
    func completionQueue() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let queue = DispatchQueue(label: "completion-test")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completion-test")
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://h.example",
            httpClient: stub,
            configuration: .init(completionQueue: queue)
        )
        let onQueue: Bool = await withCheckedContinuation { continuation in
            apiClient.POST("/x", body: ["a": 1]) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == "completion-test")
            }
        }
        #expect(onQueue)
    }
}
