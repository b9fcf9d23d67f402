import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation

/// A client over a ``HeldTransport`` with a coalescer, for the coalescing tests.
struct CoalescingFixture {
    /// What a call ends with.
    typealias Outcome = Result<HTTPResponse, APIClientError>
    /// A call in flight.
    typealias Call = Task<Outcome, Never>

    let coalescer: RequestCoalescingInterceptor
    let transport: HeldTransport
    let apiClient: BothamAPIClient

    /// Every status accepted, `maxRetries` retries; the transport answers each request with `answer`.
    init(
        coalescer: RequestCoalescingInterceptor = RequestCoalescingInterceptor(),
        maxRetries: Int = 0,
        observers: [any HTTPInterceptor] = [],
        outside: [any HTTPInterceptor] = [],
        answer: @escaping @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse = Self.echo
    ) {
        self.coalescer = coalescer
        transport = HeldTransport(answer: answer)
        apiClient = BothamAPIClient(
            baseEndpoint: "https://coalescing.test", httpClient: transport,
            configuration: .init(
                maxRetries: maxRetries, validation: .acceptAll, clock: VirtualClock(sleeping: .advancesClock)))
        apiClient.interceptors.append(contentsOf: observers)
        apiClient.interceptors.append(contentsOf: outside)
        apiClient.interceptors.append(coalescer)
    }

    /// 200 with a body naming the request's `Accept-Language` (or `none`).
    static let echo: @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse = { request in
        HTTPResponse(
            statusCode: 200, headers: ["Content-Type": "text/plain"],
            body: Data("body for \(request.headers["Accept-Language"] ?? "none")".utf8), request: request)
    }

    /// Starts `count` GETs of `path`, each with the headers `headers(index)`.
    func startGETs(
        _ count: Int, _ path: String = "/feed", headers: @escaping @Sendable (Int) -> HTTPHeaders = { _ in [:] }
    ) -> [Call] {
        (0..<count).map { index in
            Task { [apiClient] in await apiClient.GET(path, headers: headers(index)) }
        }
    }

    /// Whether `count` calls are waiting on the coalescer and `held` requests are held by the transport.
    func waitUntil(waiting count: Int, held: Int) async -> Bool {
        await eventually { coalescer.waitingCallCount == count && transport.heldCount == held }
    }

    /// Whether the coalescer's table is empty.
    var isEmpty: Bool {
        coalescer.inFlightExchangeCount == 0 && coalescer.waitingCallCount == 0
    }
}

/// Every result of `tasks`, in order. Cancelling the waiting task (a suite's time limit) cancels every call, so a
/// call left held after a failed wait ends with `.cancelled` and the test fails instead of waiting forever.
func results(of tasks: [CoalescingFixture.Call]) async -> [CoalescingFixture.Outcome] {
    await awaitingCancellably(tasks)
}

/// Records whether each finished call was answered by another call's exchange, and the ids of those that were not.
final class JoinedRecorder: HTTPInterceptor {
    let joined = Recorder<Bool>()
    let starters = Recorder<UInt64>()

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request)
    }

    func callDidFinish(_ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext) {
        let hasJoined = context[RequestCoalescingInterceptor.Joined.self]
        joined.append(hasJoined)
        if !hasJoined { starters.append(context.callID) }
    }
}

/// Records the call id of every attempt it sees.
struct CallIDRecorder: HTTPInterceptor {
    let ids = Recorder<UInt64>()

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        ids.append(HTTPCallContext.current?.callID == context.callID ? context.callID : 0)
        return try await next(request)
    }
}
