import BothamNetworking
import Foundation

/// A transport for unit tests: answers from stubs, records every request, never touches the network.
///
/// ```swift
/// let stubClient = StubHTTPClient()
/// stubClient.stub(.method(.get) && .path("/issues"), with: .json([["id": 1, "title": "Crash on launch"]]))
///
/// let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com/repos/Karumi/BothamNetworking",
///                                 httpClient: stubClient)
/// let issues = GitHubIssuesClient(apiClient: apiClient)     // your per-service client
/// let titles = try await issues.openIssueTitles()
///
/// #expect(titles == ["Crash on launch"])
/// #expect(stubClient.receivedRequests.first?.parameters["state"] == "open")
/// ```
///
/// - The most recently added stub whose matcher accepts a request answers it.
/// - A stub's answers are served in order, one per request the transport receives — so each attempt of a retried
///   call, each redirect-free send of an onion interceptor, takes the next one; after the last it repeats the last
///   (or, with ``Exhaustion/stop``, stops matching so an earlier stub or the failure below applies):
///
///   ```swift
///   // The first two attempts get 503, the third and every later request 200.
///   stubClient.stub(.path("/feed"), with: .response(statusCode: 503), .response(statusCode: 503), .text("ok"))
///   // One answer, then the stub is used up and the catch-all below it answers.
///   stubClient.stub(with: .response(statusCode: 404))
///   stubClient.stub(.path("/token"), with: .json(["access_token": "t"]), then: .stop)
///   ```
/// - ``RequestMatcher/path(_:)`` matches exactly (no prefix, case and trailing `/` count, the query ignored).
/// - It fails closed: a request no stub matches fails with `APIClientError/httpClientError(underlying:)` holding
///   an ``UnmatchedRequest`` that names the request and lists the stubs.
/// - Latency is virtual by default: ``virtualTimeElapsed`` advances, nothing sleeps; a latency longer than the
///   request's timeout ends with `APIClientError/timeout` at once. With `LatencyMode.clock` it is waited out on
///   the call's clock instead: real time by default, or a ``VirtualClock`` the test advances.
/// - Safe to use from concurrent calls; ``hold(_:next:)`` makes their interleaving deterministic (hold requests
///   until the test releases them, see ``StubGate``).
/// - Progress is reported for stubbed bodies too (the request body, then the response body, a quarter at a time),
///   so progress UIs can be tested; a file `HTTPRequest.responseDestination` gets the stubbed
///   body written to it by the client.
public final class StubHTTPClient: HTTPClient {
    /// How latency is spent.
    public enum LatencyMode: Sendable {
        /// Latency is only counted: it advances ``StubHTTPClient/virtualTimeElapsed``; nothing waits.
        case virtual
        /// Latency is waited out (cancellably) on the call's clock (`HTTPCallContext.clock`, the client's
        /// `Configuration.clock`; the system clock outside a call): real time with the system clock; with a
        /// ``VirtualClock`` the answer comes when the test advances the clock past the latency. A latency longer
        /// than the request's timeout waits the timeout, then ends with `APIClientError/timeout`.
        case clock
    }

    /// What a stub does after its last answer.
    public enum Exhaustion: Sendable {
        /// Keep answering with the last answer.
        case repeatLast
        /// Stop matching.
        case stop
    }

    /// The error of a request no stub matches.
    public struct UnmatchedRequest: Error, CustomStringConvertible {
        /// The request, as sent.
        package let request: HTTPRequest
        /// The descriptions of the stubs that were tried.
        package let stubs: [String]

        /// Names the request and lists the stubs.
        public var description: String {
            let list = stubs.isEmpty ? "no stubs" : stubs.map { "  - \($0)" }.joined(separator: "\n")
            return "StubHTTPClient: no stub matches \(request.debugDescription)\nstubs:\n\(list)"
        }
    }

    private struct Entry {
        let matcher: RequestMatcher
        let responses: [StubResponse]
        let exhaustion: Exhaustion
        var served = 0

        var isExhausted: Bool { exhaustion == .stop && served >= responses.count }
    }

    private struct State {
        var entries: [Entry] = []
        var requests: [HTTPRequest] = []
        var elapsed: Duration = .zero
        var gates: [StubGate] = []
        var coverages: [EndpointCoverage] = []
    }

    private let state = Lock(State())
    private let latencyMode: LatencyMode

    /// Creates a stub transport with no stubs.
    public init(latency: LatencyMode = .virtual) {
        latencyMode = latency
    }

    /// Adds a stub answering requests that `matcher` accepts with `responses`, one per request in order; after the
    /// last, `then` says whether the last repeats (the default) or the stub stops matching. It takes precedence over
    /// every stub added before it.
    public func stub(_ matcher: RequestMatcher = .any, with responses: StubResponse..., then: Exhaustion = .repeatLast)
    {
        stub(matcher, with: responses, then: then)
    }

    /// Adds a stub answering requests that `matcher` accepts with `responses`, in order.
    package func stub(
        _ matcher: RequestMatcher = .any, with responses: [StubResponse], then: Exhaustion = .repeatLast
    ) {
        state.withLock { $0.entries.append(Entry(matcher: matcher, responses: responses, exhaustion: then)) }
    }

    /// Holds the next `count` requests that `matcher` accepts until the test releases them through the returned
    /// ``StubGate`` (``StubGate/releaseOne()``, ``StubGate/releaseAll()``); ``StubGate/waitUntilHeld(_:timeout:)``
    /// waits, bounded, until they have arrived. Gates are tried in the order they were added; a request is held by
    /// one gate at most.
    ///
    /// ```swift
    /// let gate = stubClient.hold(.path("/profile"), next: 2)
    /// ```
    public func hold(_ matcher: RequestMatcher = .any, next count: Int) -> StubGate {
        let gate = StubGate(matcher: matcher, capacity: count)
        state.withLock { $0.gates.append(gate) }
        return gate
    }

    /// Counts every request this client receives from now on in `coverage` (see ``EndpointCoverage``); several
    /// clients may share one coverage.
    public func trackCoverage(in coverage: EndpointCoverage) {
        state.withLock { $0.coverages.append(coverage) }
    }

    /// Removes every stub (recorded requests stay).
    public func removeAllStubs() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Every request received, in order.
    public var receivedRequests: [HTTPRequest] {
        state.withLock { $0.requests }
    }

    /// The latency counted so far in ``LatencyMode/virtual`` mode.
    public var virtualTimeElapsed: Duration {
        state.withLock { $0.elapsed }
    }

    /// Answers from the matching stub.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let arrival: (gate: StubGate?, answer: StubResponse?) = state.withLock { state in
            state.requests.append(request)
            for coverage in state.coverages { coverage.record(request) }
            if let gate = state.gates.first(where: { $0.admits(request) }) { return (gate, nil) }
            return (nil, Self.answer(to: request, in: &state))
        }
        var answer = arrival.answer
        if let gate = arrival.gate {
            await gate.hold()
            if Task.isCancelled { throw .cancelled }
            answer = state.withLock { Self.answer(to: request, in: &$0) }
        }
        guard let answer else {
            let stubs = state.withLock { $0.entries.map(\.matcher.description) }
            throw .httpClientError(underlying: UnmatchedRequest(request: request, stubs: stubs))
        }
        let clock = HTTPCallContext.currentClock
        try await spend(answer.latency, timeout: request.timeout, on: clock)
        switch answer.outcome {
        case .failure(let error):
            throw error
        case .webSocket(let subprotocol, let script):
            return Self.webSocketResponse(to: request, protocol: subprotocol, script: script) { [self] duration in
                do throws(APIClientError) {
                    try await spend(duration, timeout: nil, on: clock)
                    return true
                } catch {
                    return false
                }
            }
        case .response(let statusCode, let headers, let body):
            let responseBody = request.method == .head ? Data() : body
            if let reporter = TransferProgress.Reporter.current {
                if let size = Self.requestBodySize(of: request) { Self.report(.upload, size: size, to: reporter) }
                Self.report(.download, size: Int64(responseBody.count), to: reporter)
            }
            return HTTPResponse(statusCode: statusCode, headers: headers, body: responseBody, request: request)
        case .streamed(let statusCode, let headers, let chunks, let end):
            guard request.responseDestination == .stream else {
                if case .failure(let error) = end { throw error }
                for chunk in chunks { try await spend(chunk.delay, timeout: nil, on: clock) }
                let body = request.method == .head ? Data() : chunks.reduce(into: Data()) { $0.append($1.bytes) }
                return HTTPResponse(statusCode: statusCode, headers: headers, body: body, request: request)
            }
            let (stream, continuation) = HTTPBodyStream.makeStream(clock: clock)
            // The producer ends by itself: at the end of the script, or at once when the consumer is gone.
            Task { [self] in
                for chunk in chunks {
                    do throws(APIClientError) {
                        try await spend(chunk.delay, timeout: nil, on: clock)
                    } catch {
                        return continuation.finish(throwing: error)
                    }
                    guard await continuation.send(chunk.bytes) else { return }
                }
                switch end {
                case .complete: continuation.finish()
                case .failure(let error): continuation.finish(throwing: error)
                }
            }
            return HTTPResponse(statusCode: statusCode, headers: headers, request: request, bodyStream: stream)
        }
    }

    /// The answer of the newest stub that matches `request`, counted as served; `nil` when none matches.
    private static func answer(to request: HTTPRequest, in state: inout State) -> StubResponse? {
        guard
            let index = state.entries.lastIndex(where: {
                !$0.isExhausted && !$0.responses.isEmpty && $0.matcher.matches(request)
            })
        else { return nil }
        let entry = state.entries[index]
        state.entries[index].served += 1
        return entry.responses[min(entry.served, entry.responses.count - 1)]
    }

    /// How many progress reports a stubbed body produces per direction: a quarter of it at a time.
    package static let progressSteps = 4

    /// Reports `size` bytes going in `direction` in ``progressSteps`` equal steps, ending at the total.
    private static func report(
        _ direction: TransferProgress.Direction, size: Int64, to reporter: TransferProgress.Reporter
    ) {
        guard size > 0 else { return reporter.report(direction, completed: 0, total: 0) }
        for step in 1...Int64(progressSteps) {
            reporter.report(direction, completed: size * step / Int64(progressSteps), total: size)
        }
    }

    /// The size of the request body: its file's size for a file body, else its bytes; `nil` without a body.
    private static func requestBodySize(of request: HTTPRequest) -> Int64? {
        guard let body = request.body else { return nil }
        if let url = body.fileURL {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
            return size?.int64Value
        }
        return ((try? request.bodyData()) ?? nil).map { Int64($0.count) }
    }

    private func spend(_ latency: Duration, timeout: Duration?, on clock: any HTTPClock) async throws(APIClientError) {
        let timesOut = timeout.map { latency > $0 } ?? false
        let wait = timesOut ? (timeout ?? .zero) : latency
        switch latencyMode {
        case .virtual:
            state.withLock { $0.elapsed += wait }
            await Task.yield()
            if Task.isCancelled { throw .cancelled }
        case .clock:
            if wait > .zero {
                do { try await clock.sleep(for: wait) } catch { throw .cancelled }
            }
            if Task.isCancelled { throw .cancelled }
        }
        if timesOut { throw .timeout }
    }
}
