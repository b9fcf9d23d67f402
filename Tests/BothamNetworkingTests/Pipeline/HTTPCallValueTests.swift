import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

@Suite("Per-call values live with the call", .timeLimit(.minutes(1)))
struct HTTPCallValueTests {
    enum Tag: HTTPCallValueKey {
        static let defaultValue = ""
    }

    enum Counter: HTTPCallValueKey {
        static let defaultValue = 0
    }

    /// A value whose release can be observed.
    final class Token: Sendable {}

    enum Held: HTTPCallValueKey {
        static let defaultValue: Token? = nil
    }

    /// Writes the request's `X-Tag` header into the call's values on the first attempt only, and records what every
    /// attempt reads back.
    struct TagOnFirstAttempt: BothamRequestInterceptor {
        let seen: Recorder<String>

        func intercept(request: HTTPRequest) async throws -> HTTPRequest {
            let call = try #require(HTTPCallContext.current)
            if !call.isRetry { call[Tag.self] = request.headers["X-Tag"] ?? "?" }
            await Task.yield()
            seen.append("\(call.attempt):\(call[Tag.self])")
            return request
        }
    }

    /// Retries every response once.
    struct RetryOnce: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
            HTTPCallContext.current?.isRetry == true ? .proceed(response) : .retry
        }
    }

    func client(_ stub: StubHTTPClient) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub,
            configuration: .init(maxRetries: 1, clock: VirtualClock(sleeping: .advancesClock)))
    }

    @Test("a value set in one attempt is seen by the next attempt of the same call")
    func survivesRetries() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let seen = Recorder<String>()
        let apiClient = client(stub)
        apiClient.requestInterceptors.append(TagOnFirstAttempt(seen: seen))
        apiClient.responseInterceptors.append(RetryOnce())

        _ = try await apiClient.response(for: apiClient.request(.get, "/", headers: ["X-Tag": "first"]))

        #expect(seen.values == ["1:first", "2:first"])
    }

    @Test("concurrent calls never see each other's values")
    func isolatedBetweenCalls() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let seen = Recorder<String>()
        let apiClient = client(stub)
        apiClient.requestInterceptors.append(TagOnFirstAttempt(seen: seen))
        apiClient.responseInterceptors.append(RetryOnce())

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    _ = await apiClient.send(apiClient.request(.get, "/", headers: ["X-Tag": "call-\(index)"]))
                }
            }
        }

        let expected = (0..<50).flatMap { ["1:call-\($0)", "2:call-\($0)"] }
        #expect(seen.values.sorted() == expected.sorted())
    }

    @Test("a finished call leaves nothing behind: its values are released with it")
    func releasedWithTheCall() async throws {
        struct Hold: BothamRequestInterceptor {
            let made: Lock<Token?>
            func intercept(request: HTTPRequest) async throws -> HTTPRequest {
                let token = Token()
                made.withLock { $0 = token }
                HTTPCallContext.current?[Held.self] = token
                return request
            }
        }
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let made = Lock<Token?>(nil)
        let apiClient = client(stub)
        apiClient.requestInterceptors.append(Hold(made: made))

        _ = try await apiClient.response(for: apiClient.request(.get, "/"))

        weak let held = made.withLock { $0 }
        #expect(held != nil)
        made.withLock { $0 = nil }
        #expect(held == nil)
    }

    @Test("update changes a value in one step, however many tasks change it at once")
    func updateIsAtomic() async {
        let context = HTTPCallContext(callID: 1, attempt: 1, maxAttempts: 1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { context.update(Counter.self) { $0 += 1 } }
            }
        }
        #expect(context[Counter.self] == 1_000)
    }

    @Test("a context made for testing has values of its own, and the next attempt shares its call's values")
    func contextsForTesting() {
        let first = HTTPCallContext(callID: 7, attempt: 1, maxAttempts: 2, startedAt: .now)
        let twin = HTTPCallContext(callID: 7, attempt: 1, maxAttempts: 2, startedAt: first.startedAt)
        first[Tag.self] = "set"

        #expect(twin[Tag.self] == "")
        #expect(first.nextAttempt()[Tag.self] == "set")
    }
}

@Suite("What an update's body may do", .timeLimit(.minutes(1)))
struct HTTPCallValueUpdateTests {
    enum Seen: HTTPCallValueKey {
        static let defaultValue: [String] = []
    }

    /// Notes, in one update, the URL of the request it is given (preparation's records are the call's too), and
    /// reports what the call's value holds afterwards.
    struct NotingInterceptor: HTTPInterceptor {
        let log: Recorder<String>

        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            context.update(Seen.self) { $0.append(request.url?.absoluteString ?? "none") }
            for url in context[Seen.self] { log.append(url) }
            return try await next(request)
        }
    }

    @Test("An update's body may resolve the URL of a request of its call")
    func updateMayResolveURLs() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let endpoint = uniqueEndpoint()
        let log = Recorder<String>()
        let apiClient = BothamAPIClient(baseEndpoint: endpoint, httpClient: stub)
        apiClient.interceptors.append(NotingInterceptor(log: log))
        // With the records behind the values' lock, the update would wait for itself for ever: bounded here.
        let statusCode = Lock<Int?>(nil)
        let finished = await finishesWithin(.seconds(10)) {
            let response = try? await apiClient.GET("/x").get()
            statusCode.withLock { $0 = response?.statusCode }
        }
        #expect(finished)
        #expect(statusCode.withLock { $0 } == 200)
        #expect(log.values == [endpoint + "/x"])
    }
}
