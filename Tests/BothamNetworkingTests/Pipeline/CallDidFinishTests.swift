import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Passes every request on and records how each call it took part in ended.
private struct Finishing: HTTPInterceptor {
    let ends: Recorder<(status: Int?, attempt: Int)>

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        try await next(request)
    }

    func callDidFinish(_ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext) {
        ends.append((status: result.endStatus, attempt: context.attempt))
    }
}

extension Result<HTTPResponse, APIClientError> {
    fileprivate var endStatus: Int? {
        switch self {
        case .success(let response): response.statusCode
        case .failure(let error): error.statusCode
        }
    }
}

@Suite("An interceptor hears the end of each call once: one object, one registration", .timeLimit(.minutes(1)))
struct CallDidFinishTests {
    @Test("every interceptor of both lists is told once per call, after the last attempt, with the caller's result")
    func toldOncePerCallAfterRetries() async {
        let stub = StubHTTPClient()
        stub.stub(with: .response(statusCode: 503), .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.configuration.retrier = RetryPolicy(backoff: .init(baseDelay: .zero))
        let outer = Recorder<(status: Int?, attempt: Int)>()
        let network = Recorder<(status: Int?, attempt: Int)>()
        apiClient.interceptors.append(Finishing(ends: outer))
        apiClient.networkInterceptors.append(Finishing(ends: network))

        let result = await apiClient.GET("/items")

        #expect((try? result.get().statusCode) == 200)
        #expect(stub.receivedRequests.count == 2)
        for ends in [outer, network] {
            #expect(ends.values.map(\.status) == [200])
            #expect(ends.values.map(\.attempt) == [2])
        }
    }

    @Test("a call that fails is told its failure, once")
    func toldTheFailure() async {
        let stub = StubHTTPClient()
        stub.stub(with: .response(statusCode: 404))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let ends = Recorder<(status: Int?, attempt: Int)>()
        apiClient.interceptors.append(Finishing(ends: ends))

        _ = await apiClient.GET("/missing")
        _ = await apiClient.GET("/missing")

        #expect(ends.values.map(\.status) == [404, 404])
    }
}
