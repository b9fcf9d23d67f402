import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

// The previous release's registrations of interceptors and observers keep working (#34). As in
// DeprecatedSpellingsTests, the code using them lives in deprecated methods reached through a protocol.
@Suite("The previous release's interceptor and observer spellings still work", .timeLimit(.minutes(1)))
struct DeprecatedInterceptorSpellingsTests {
    let former: any FormerInterceptorSpellingsScenarios = FormerInterceptorSpellings()

    @Test("install(on:) registers a metrics interceptor, which reports each call once")
    func installReportsOnce() async throws { try await former.installReportsOnce() }

    @Test("An observer in Configuration.callObservers is told once per call, after the interceptors")
    func callObserversTold() async throws { try await former.callObserversTold() }

    @Test("TokenStore, AuthToken and TokenRefreshLimit still build an authenticator that refreshes on a 401")
    func formerTokenNames() async throws { try await former.formerTokenNames() }
}

protocol FormerInterceptorSpellingsScenarios: Sendable {
    func installReportsOnce() async throws
    func callObserversTold() async throws
    func formerTokenNames() async throws
}

struct FormerInterceptorSpellings: FormerInterceptorSpellingsScenarios {
    /// Records the calls it is told of, and whether the interceptors were told first.
    @available(*, deprecated, message: "an HTTPCallObserver")
    final class Observer: HTTPCallObserver {
        let told = Recorder<Int>()
        let interceptorTold: Recorder<Int>

        init(after interceptorTold: Recorder<Int>) {
            self.interceptorTold = interceptorTold
        }

        func callDidFinish(
            _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
        ) {
            told.append(interceptorTold.values.count)
        }
    }

    /// Passes requests on and records each call's end.
    struct Finishing: HTTPInterceptor {
        let told = Recorder<Int>()

        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            try await next(request)
        }

        func callDidFinish(
            _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
        ) {
            told.append(context.attempt)
        }
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func installReportsOnce() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let reports = Recorder<CallMetrics>()
        let sink = MetricsSink { reports.append($0) }
        MetricsInterceptor(sink: sink).install(on: apiClient)

        _ = try await apiClient.GET("/a").get()

        #expect(reports.values.map(\.statusCode) == [200])
        #expect(apiClient.interceptors.count == 1)
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func callObserversTold() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let finishing = Finishing()
        let observer = Observer(after: finishing.told)
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(callObservers: [observer]))
        apiClient.interceptors.append(finishing)

        _ = try await apiClient.GET("/a").get()
        _ = try await apiClient.GET("/b").get()

        #expect(finishing.told.values == [1, 1])
        #expect(observer.told.values == [1, 2])
        #expect(apiClient.configuration.callObservers.count == 1)
    }

    @available(*, deprecated, message: "uses the deprecated spellings")
    func formerTokenNames() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .response(statusCode: 401))
        stub.stub(.header(.authorization, "Bearer new"), with: .text("ok"))
        let store = TokenStore(token: AuthToken("old"))
        let authenticator = TokenAuthenticator(store: store, refreshLimit: TokenRefreshLimit(maxRefreshes: 1)) { _ in
            AuthToken("new")
        }
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        #expect(try await apiClient.GET("/me").get().statusCode == 200)
        #expect(await store.token == AuthToken("new"))
    }
}
