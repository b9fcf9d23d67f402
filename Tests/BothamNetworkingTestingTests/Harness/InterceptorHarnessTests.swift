import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("InterceptorHarness", .timeLimit(.minutes(1)))
struct InterceptorHarnessTests {
    let harness = InterceptorHarness()

    struct Credentials: BasicAuthentication {
        let credentials = BasicAuthCredentials(username: "jane", password: "hunter2")
        let realms = Recorder<String>()
        var insecureTransportLog: LoggingInterceptor.Sink { LoggingInterceptor.Sink { _, _ in } }

        func onAuthenticationError(realm: String) async {
            realms.append(realm)
        }
    }

    @Test("A request interceptor's output request is returned, and next is never called")
    func requestInterceptor() async throws {
        let run = await harness.run(Credentials(), on: harness.request(.get, "/me"))
        let request = try run.get()
        #expect(request.headers[.authorization] == "Basic " + Data("jane:hunter2".utf8).base64EncodedString())
        #expect(run.nextCallCount == 0)
    }

    @Test("Basic authentication hears of a 401 Basic challenge and lets the response through")
    func basicAuthenticationChallenge() async throws {
        harness.next.stub(with: .response(statusCode: 401, headers: ["WWW-Authenticate": #"Basic realm="admin""#]))
        let credentials = Credentials()
        let run = await harness.runAttempts(credentials, on: harness.request(.get, "/admin"))
        #expect(try run.get().statusCode == 401)
        #expect(run.nextCallCount == 1)
        #expect(run.sentRequests.first?.headers[.authorization]?.hasPrefix("Basic ") == true)
        #expect(credentials.realms.values == ["admin"])
        #expect(run.decisions.count == 1 && run.decisions.first?.proceededResponse?.statusCode == 401)
    }

    @Test("The token authenticator refreshes on a 401, retries once with the new token, and passes a second 401 on")
    func tokenAuthenticatorRetry() async throws {
        let store = TokenAuthenticator.Store(token: TokenAuthenticator.Token("stale"))
        let authenticator = TokenAuthenticator(store: store) { _ in TokenAuthenticator.Token("fresh") }
        harness.next.stub(.header(.authorization, "Bearer stale"), with: .response(statusCode: 401))
        harness.next.stub(.header(.authorization, "Bearer fresh"), with: .text("me"))

        let run = await harness.runAttempts(authenticator, on: harness.request(.get, "/me"))
        #expect(try run.get().body == Data("me".utf8))
        #expect(run.sentRequests.map { $0.headers[.authorization] } == ["Bearer stale", "Bearer fresh"])
        #expect(run.decisions.map(\.isRetry) == [true, false])
        #expect(await store.refreshCount == 1)

        let rejecting = InterceptorHarness()
        rejecting.next.stub(with: .response(statusCode: 401))
        let again = await rejecting.runAttempts(
            TokenAuthenticator(store: .init(token: .init("a"))) { _ in TokenAuthenticator.Token("b") },
            on: rejecting.request(.get, "/me"))
        #expect(try again.get().statusCode == 401, "a second rejection is passed on, not retried")
        #expect(again.nextCallCount == 2)
    }

    @Test("A response interceptor that keeps answering retry ends at the attempt limit with retryLimitExceeded")
    func retryLimit() async throws {
        struct AlwaysRetry: BothamResponseInterceptor {
            func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
                .retry
            }
        }
        harness.next.stub(with: .response(statusCode: 500))
        let run = await harness.runAttempts(AlwaysRetry(), on: harness.request(.get, "/x"), maxAttempts: 3)
        #expect(run.nextCallCount == 3)
        guard case .retryLimitExceeded(let attempts, .success(let last)) = run.error as? APIClientError else {
            Issue.record("expected retryLimitExceeded, got \(String(describing: run.error))")
            return
        }
        #expect(attempts == 3 && last.statusCode == 500)
    }

    @Test("A response interceptor's error path gets the failure next answered with")
    func errorPath() async throws {
        harness.next.stub(with: .failure(.timeout))
        let run = await harness.run(Credentials(), for: harness.request(.get, "/x"))
        guard case .fail(.timeout) = try run.get() else {
            Issue.record("the default error path fails with the error, got \(run.result)")
            return
        }
        #expect(run.nextCallCount == 1)
    }

    @Test("An onion interceptor's calls of next, the requests it sent and its response are reported")
    func onionInterceptor() async throws {
        let jar = CookieJar()
        let cookies = jar
        harness.next.stub(.path("/login"), with: .text("ok", headers: ["Set-Cookie": "session=abc; Path=/"]))
        harness.next.stub(.path("/me"), with: .text("me"))

        let login = await harness.run(cookies, on: harness.request(.post, "/login"))
        #expect(try login.get().statusCode == 200)
        #expect(login.nextCallCount == 1)
        let me = await harness.run(cookies, on: harness.request(.get, "/me"))
        #expect(me.sentRequests.map { $0.headers[.cookie] } == ["session=abc"])

        struct Twice: HTTPInterceptor {
            func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
                -> HTTPResponse
            {
                _ = try await next(request)
                return try await next(request.withHeader("X-Second", "1"))
            }
        }
        let twice = await harness.run(Twice(), on: harness.request(.get, "/me"))
        #expect(twice.nextCallCount == 2)
        #expect(twice.sentRequests.map { $0.headers["X-Second"] } == [nil, "1"])
    }

    @Test("A network interceptor gets a prepared request: its URL resolved and its body encoded")
    func networkPlacement() async throws {
        struct Capture: HTTPInterceptor {
            let seen: Recorder<String>
            func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
                -> HTTPResponse
            {
                seen.append(request.headers[.contentType] ?? "none")
                return try await next(request)
            }
        }
        harness.next.stub(with: .text("ok"))
        let seen = Recorder<String>()
        let request = harness.request(.post, "/items", body: ["a": 1])
        _ = await harness.run(Capture(seen: seen), on: request, placement: .application)
        _ = await harness.run(Capture(seen: seen), on: request, placement: .network)
        #expect(seen.values == ["none", "application/json"])
    }

    @Test("A retry policy's decisions and the waits it asks for are reported, without sleeping")
    func retryPolicy() async throws {
        harness.next.stub(
            with: .response(statusCode: 503, headers: ["Retry-After": "7"]), .response(statusCode: 502), .text("ok"))
        let policy = RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .seconds(1), multiplier: 2), jitter: .none)
        let run = await harness.run(policy, on: harness.request(.get, "/flaky"), maxAttempts: 4)
        #expect(try run.get().statusCode == 200)
        #expect(run.nextCallCount == 3)
        #expect(run.retryDelays == [.seconds(7), .seconds(2)])

        let post = InterceptorHarness()
        post.next.stub(with: .response(statusCode: 503))
        let notRetried = await post.run(policy, on: post.request(.post, "/orders"))
        #expect(notRetried.nextCallCount == 1, "a POST is not retried by default")
        #expect(notRetried.retryDelays.isEmpty)
    }

    @Test("The call context is bound for the interceptor, and attempts of one run share it")
    func contextBound() async throws {
        struct ReadsContext: BothamRequestInterceptor {
            func intercept(request: HTTPRequest) async throws -> HTTPRequest {
                request.withHeader("X-Attempt", String(HTTPCallContext.current?.attempt ?? 0))
            }
        }
        let context = HTTPCallContext(callID: 42, attempt: 2, maxAttempts: 3)
        let run = await harness.run(ReadsContext(), on: harness.request(.get, "/"), context: context)
        #expect(try run.get().headers["X-Attempt"] == "2")
    }
}
