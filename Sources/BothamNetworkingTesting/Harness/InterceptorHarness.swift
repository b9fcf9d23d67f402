import BothamNetworking
import Foundation

/// Runs one interceptor, of any kind, against a scripted `next` and reports what it did — without building a client.
///
/// The script is a ``StubHTTPClient`` (``next``): stub it as usual, then run the interceptor and inspect the
/// ``InterceptorRun``:
///
/// ```swift
/// let harness = InterceptorHarness()
/// harness.next.stub(with: .response(statusCode: 401), .text("ok"))
///
/// let run = await harness.runAttempts(authenticator, on: harness.request(.get, "/me"))
/// #expect(run.sentRequests.count == 2)                              // the 401, then the retry
/// #expect(run.sentRequests.last?.headers[.authorization] == "Bearer fresh")
/// #expect(try run.get().statusCode == 200)
/// ```
///
/// - `run(_:on:context:)`: a request interceptor on one request (`next` is not
///   called).
/// - `run(_:for:context:)`: a response interceptor on the answer `next` gives to the request (a response, or a
///   failure, which goes to its `intercept(error:for:)`).
/// - `runAttempts(_:on:maxAttempts:)`: the attempt loop of one call with a response interceptor — its request role
///   on the original request when it plays both roles (`TokenAuthenticator`, `BasicAuthentication`), `next`, the
///   response role — repeated while it answers `.retry`, up to `maxAttempts`.
/// - `run(_:on:placement:context:)`: an onion `HTTPInterceptor`, with `next` answering from the script each
///   time it is called; as a network interceptor (``Placement/network``) it gets a prepared request and what it
///   passes to `next` is prepared again, as the client does.
/// - `run(_:on:maxAttempts:)`: a `RequestRetrier` (`RetryPolicy`): its decision after each answer, the waits
///   it asked for (nothing sleeps).
///
/// Every run binds an `HTTPCallContext` (its own, or the one given) as `HTTPCallContext.current`, so interceptors
/// that keep per-call state find it, and every attempt of a run shares it.
public struct InterceptorHarness: Sendable {
    /// Where an onion interceptor sits.
    public enum Placement: Sendable, Hashable {
        /// Among `BothamAPIClient.interceptors`: it gets the request as the request interceptors left it.
        case application
        /// Among `BothamAPIClient.networkInterceptors`: it gets the prepared request, and what it sends on is
        /// prepared again.
        case network
    }

    /// The scripted `next`: stub its answers; its ``StubHTTPClient/receivedRequests`` are every request that
    /// reached it.
    public let next: StubHTTPClient
    /// The base endpoint of ``request(_:_:parameters:headers:body:)``.
    package let baseEndpoint: String

    /// A harness whose `next` is `next` (a fresh ``StubHTTPClient`` by default).
    public init(next: StubHTTPClient = StubHTTPClient(), baseEndpoint: String = "https://api.example.com") {
        self.next = next
        self.baseEndpoint = baseEndpoint
    }

    /// A request for the harness's base endpoint, as `BothamAPIClient.request` makes it.
    public func request(
        _ method: HTTPMethod, _ path: String, parameters: HTTPParameters = [:], headers: HTTPHeaders = [:],
        body: HTTPBody? = nil
    ) -> HTTPRequest {
        HTTPRequest(
            method: method, baseEndpoint: baseEndpoint, path: path, parameters: parameters, headers: headers, body: body
        )
    }

    /// A fresh context for the first attempt of a call with `maxAttempts` attempts.
    package static func context(maxAttempts: Int = 1) -> HTTPCallContext {
        HTTPCallContext(callID: UInt64.random(in: 1...UInt64.max), attempt: 1, maxAttempts: max(1, maxAttempts))
    }

    // MARK: Request interceptors

    /// Runs a request interceptor on `request`, with `context` (a fresh one for a first attempt by default); the
    /// run's output is the request it produced.
    public func run(
        _ interceptor: some BothamRequestInterceptor, on request: HTTPRequest, context: HTTPCallContext? = nil
    ) async -> InterceptorRun<HTTPRequest> {
        let result = await HTTPCallContext.$current.withValue(context ?? Self.context()) {
            await Self.capture { try await interceptor.intercept(request: request) }
        }
        return InterceptorRun(result: result, sentRequests: [], decisions: [], retryDelays: [])
    }

    // MARK: Response interceptors

    /// Sends `request` to ``next`` and runs a response interceptor on what it answers, with `context` (a fresh one
    /// for a first attempt by default); the run's output is the interceptor's decision.
    public func run(
        _ interceptor: some BothamResponseInterceptor, for request: HTTPRequest, context: HTTPCallContext? = nil
    ) async -> InterceptorRun<ResponseInterceptorResult> {
        let start = next.receivedRequests.count
        let result = await HTTPCallContext.$current.withValue(context ?? Self.context()) {
            await decide(interceptor, request: request).decision
        }
        return InterceptorRun(
            result: result, sentRequests: sentSince(start), decisions: (try? result.get()).map { [$0] } ?? [],
            retryDelays: [])
    }

    /// The attempt loop of one call with a response interceptor: `next`, then the interceptor, again while it
    /// answers `.retry` and attempts remain. An interceptor that also plays the request role
    /// (`BothamRequestInterceptor`, as `TokenAuthenticator` does) runs it on the original request at the start of
    /// each attempt. The output is the response it let through; a `.fail`, or a `.retry` on the last attempt, ends
    /// the run with the error.
    public func runAttempts(
        _ interceptor: some BothamResponseInterceptor, on request: HTTPRequest, maxAttempts: Int = 3
    ) async -> InterceptorRun<HTTPResponse> {
        guard let requestRole = interceptor as? any BothamRequestInterceptor else {
            return await attempts(on: request, maxAttempts: maxAttempts, prepare: { $0 }, respond: interceptor)
        }
        return await attempts(
            on: request, maxAttempts: maxAttempts, prepare: { try await requestRole.intercept(request: $0) },
            respond: interceptor)
    }

    private func attempts(
        on original: HTTPRequest, maxAttempts: Int, prepare: @Sendable (HTTPRequest) async throws -> HTTPRequest,
        respond interceptor: some BothamResponseInterceptor
    ) async -> InterceptorRun<HTTPResponse> {
        let start = next.receivedRequests.count
        var context = Self.context(maxAttempts: maxAttempts)
        var decisions: [ResponseInterceptorResult] = []
        var outcome: Result<HTTPResponse, any Error> = .failure(APIClientError.cancelled)
        attempts: while true {
            let attempt = context
            let (answer, decision) = await HTTPCallContext.$current.withValue(attempt) {
                () async -> (Result<HTTPResponse, APIClientError>?, Result<ResponseInterceptorResult, any Error>) in
                switch await Self.capture({ try await prepare(original) }) {
                case .success(let request): return await decide(interceptor, request: request)
                case .failure(let error): return (nil, .failure(error))
                }
            }
            switch decision {
            case .failure(let error):
                outcome = .failure(error)
                break attempts
            case .success(let result):
                decisions.append(result)
                switch result {
                case .proceed(let response):
                    outcome = .success(response)
                    break attempts
                case .fail(let error):
                    outcome = .failure(error)
                    break attempts
                case .retry:
                    guard context.attempt < context.maxAttempts else {
                        outcome = .failure(
                            APIClientError.retryLimitExceeded(
                                attempts: context.attempt, lastOutcome: answer ?? .failure(.cancelled)))
                        break attempts
                    }
                    context = context.nextAttempt()
                }
            }
        }
        return InterceptorRun(result: outcome, sentRequests: sentSince(start), decisions: decisions, retryDelays: [])
    }

    /// `next`'s answer to `request`, and the decision of the interceptor's response or error path on it.
    private func decide(
        _ interceptor: some BothamResponseInterceptor, request: HTTPRequest
    ) async -> (answer: Result<HTTPResponse, APIClientError>, decision: Result<ResponseInterceptorResult, any Error>) {
        do {
            let response = try await next.send(request)
            return (
                .success(response),
                await Self.capture { try await interceptor.intercept(response: response, for: request) }
            )
        } catch {
            return (.failure(error), await Self.capture { try await interceptor.intercept(error: error, for: request) })
        }
    }

    // MARK: Onion interceptors

    /// Runs an onion interceptor on `request`; each call of its `next` is answered by ``next``. The output is the
    /// response it returned.
    public func run(
        _ interceptor: some HTTPInterceptor, on request: HTTPRequest, placement: Placement = .application,
        context: HTTPCallContext? = nil
    ) async -> InterceptorRun<HTTPResponse> {
        let callContext = context ?? Self.context()
        let start = next.receivedRequests.count
        let stub = next
        let chain = HTTPInterceptorNext { request async throws(APIClientError) in
            try await stub.send(placement == .network ? try request.prepared() : request)
        }
        let result = await HTTPCallContext.$current.withValue(callContext) {
            await Self.capture {
                let given = placement == .network ? try request.prepared() : request
                return try await interceptor.intercept(given, context: callContext, next: chain)
            }
        }
        return InterceptorRun(result: result, sentRequests: sentSince(start), decisions: [], retryDelays: [])
    }

    // MARK: Retriers

    /// Runs a retrier's loop for `request`: ``next`` answers, the retrier decides, again while it says retry and
    /// attempts remain. The waits it asks for are recorded in ``InterceptorRun/retryDelays``; nothing sleeps. The
    /// output is the last answer (a transport failure is the run's error).
    public func run(
        _ retrier: some RequestRetrier, on request: HTTPRequest, maxAttempts: Int = 3
    ) async -> InterceptorRun<HTTPResponse> {
        let start = next.receivedRequests.count
        var context = Self.context(maxAttempts: maxAttempts)
        var delays: [Duration] = []
        var outcome: Result<HTTPResponse, APIClientError>
        while true {
            do {
                outcome = .success(try await next.send(request))
            } catch {
                outcome = .failure(error)
            }
            guard context.attempt < context.maxAttempts else { break }
            let attempt = context
            let decision = await HTTPCallContext.$current.withValue(attempt) {
                await retrier.decision(for: outcome, request: request, context: attempt)
            }
            guard case .retry(let delay) = decision else { break }
            delays.append(delay)
            context = context.nextAttempt()
        }
        return InterceptorRun(
            result: outcome.mapError { $0 }, sentRequests: sentSince(start), decisions: [], retryDelays: delays)
    }

    // MARK: Support

    private func sentSince(_ start: Int) -> [HTTPRequest] {
        Array(next.receivedRequests.dropFirst(start))
    }

    private static func capture<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
