import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Request and response interceptors", .timeLimit(.minutes(1)))
struct InterceptorTests {
    let stub = StubHTTPClient()
    let log = Recorder<String>()
    let endpoint = uniqueEndpoint()
    var host: String? { URL(string: endpoint)?.host }

    init() {
        stub.stub(with: .text("ok"))
    }

    private func makeClient() -> BothamAPIClient {
        BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)
    }

    @Test("A local request interceptor changes the request that is sent")
    func localRequestInterceptorIsApplied() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "local", log: log, host: nil))
        _ = await apiClient.GET("/x")
        #expect(stub.receivedRequests.first?.headers["X-Intercepted-local"] == "yes")
        #expect(log.values == ["request:local"])
    }

    @Test("Local run before global on both sides, and each list runs in order")
    func order() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "local1", log: log, host: host))
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "local2", log: log, host: host))
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "local", log: log, host: host))
        let globalRequest = BothamAPIClient.globalRequestInterceptors.append(
            RecordingRequestInterceptor(name: "global", log: log, host: host)
        )
        let globalResponse = BothamAPIClient.globalResponseInterceptors.append(
            RecordingResponseInterceptor(name: "global", log: log, host: host)
        )
        defer {
            BothamAPIClient.globalRequestInterceptors.remove(globalRequest)
            BothamAPIClient.globalResponseInterceptors.remove(globalResponse)
        }
        _ = await apiClient.GET("/x")
        #expect(
            log.values == [
                "request:local1", "request:local2", "request:global", "response:local", "response:global",
            ]
        )
    }

    @Test("Global interceptors apply to every client and stop once removed")
    func globalInterceptorsAndRemoval() async throws {
        let registration = BothamAPIClient.globalRequestInterceptors.append(
            RecordingRequestInterceptor(name: "global", log: log, host: host)
        )
        let responseRegistration = BothamAPIClient.globalResponseInterceptors.append(
            RecordingResponseInterceptor(name: "global", log: log, host: host)
        )
        _ = await makeClient().GET("/one")
        _ = await makeClient().GET("/two")
        BothamAPIClient.globalRequestInterceptors.remove(registration)
        BothamAPIClient.globalResponseInterceptors.remove(responseRegistration)
        _ = await makeClient().GET("/three")
        #expect(log.values == ["request:global", "response:global", "request:global", "response:global"])
        #expect(stub.receivedRequests.last?.headers["X-Intercepted-global"] == nil)
    }

    @Test("Local interceptors stop once removed")
    func localRemoval() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "a", log: log, host: nil))
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "a", log: log, host: nil))
        _ = await apiClient.GET("/x")
        apiClient.requestInterceptors.removeAll()
        apiClient.responseInterceptors.removeAll()
        _ = await apiClient.GET("/x")
        #expect(log.values == ["request:a", "response:a"])
    }

    struct FailingRequestInterceptor: BothamRequestInterceptor {
        func intercept(request: HTTPRequest) async throws -> HTTPRequest {
            throw TestFailure(message: "no token")
        }
    }

    @Test("The chain stops at the first failing request interceptor and nothing is sent")
    func chainStopsAtFirstFailure() async throws {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "first", log: log, host: nil))
        apiClient.requestInterceptors.append(FailingRequestInterceptor())
        apiClient.requestInterceptors.append(RecordingRequestInterceptor(name: "third", log: log, host: nil))
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "response", log: log, host: nil))
        let result = await apiClient.GET("/x")
        guard case .failure(.interceptorError(let underlying)) = result else {
            Issue.record("expected interceptorError, got \(result)")
            return
        }
        #expect(underlying as? TestFailure == TestFailure(message: "no token"))
        #expect(log.values == ["request:first"])
        #expect(stub.receivedRequests.isEmpty)
    }

    struct FailingResponseInterceptor: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
            .fail(.invalidRequest(reason: "rejected by test"))
        }
    }

    @Test("The response chain stops passing responses on after an interceptor fails the call")
    func responseChainStopsAtFailure() async throws {
        let apiClient = makeClient()
        apiClient.responseInterceptors.append(FailingResponseInterceptor())
        apiClient.responseInterceptors.append(RecordingResponseInterceptor(name: "second", log: log, host: nil))
        let result = await apiClient.GET("/x")
        guard case .failure(.invalidRequest("rejected by test")) = result else {
            Issue.record("expected the interceptor's error, got \(result)")
            return
        }
        #expect(log.values.isEmpty)
    }

    struct ReplacingResponseInterceptor: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
            .proceed(response.withBody(Data("replaced for \(request.path)".utf8)))
        }
    }

    @Test("A response interceptor sees the request and can replace the response")
    func responseInterceptorReplaces() async throws {
        let apiClient = makeClient()
        apiClient.responseInterceptors.append(ReplacingResponseInterceptor())
        let response = try await apiClient.GET("/x").get()
        #expect(String(decoding: response.body, as: UTF8.self) == "replaced for /x")
    }

    struct RecoveringResponseInterceptor: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
            .proceed(response)
        }

        func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
            .proceed(HTTPResponse(statusCode: 200, body: Data("offline copy".utf8), request: request))
        }
    }

    @Test("A response interceptor sees transport errors and can recover from them")
    func responseInterceptorSeesErrors() async throws {
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .notConnected))))
        let apiClient = makeClient()
        apiClient.responseInterceptors.append(RecoveringResponseInterceptor())
        let response = try await apiClient.GET("/x").get()
        #expect(response.body == Data("offline copy".utf8))
    }

    struct CachingInterceptor: HTTPInterceptor {
        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            if request.path == "/cached" {
                return HTTPResponse(statusCode: 200, body: Data("from cache".utf8), request: request)
            }
            return try await next(request.withHeader("X-Onion", "\(context.attempt)"))
        }
    }

    @Test("An onion interceptor can short-circuit or modify and call next")
    func onionInterceptor() async throws {
        let apiClient = makeClient()
        apiClient.interceptors.append(CachingInterceptor())
        let cached = try await apiClient.GET("/cached").get()
        #expect(cached.body == Data("from cache".utf8))
        #expect(stub.receivedRequests.isEmpty)
        _ = await apiClient.GET("/live")
        #expect(stub.receivedRequests.first?.headers["X-Onion"] == "1")
    }

    struct CallContextReadingInterceptor: BothamRequestInterceptor {
        let log: Recorder<String>
        func intercept(request: HTTPRequest) async throws -> HTTPRequest {
            log.append("attempt \(HTTPCallContext.current?.attempt ?? 0)")
            return request
        }
    }

    @Test("Botham-style interceptors can read the call context")
    func callContextIsAvailable() async {
        let apiClient = makeClient()
        apiClient.requestInterceptors.append(CallContextReadingInterceptor(log: log))
        _ = await apiClient.GET("/x")
        #expect(log.values == ["attempt 1"])
    }
}
