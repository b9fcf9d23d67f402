import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Dispatch
import Foundation
import Testing

@testable import BothamNetworkingNative

/// A resolver that never answers: each lookup says it has started, then waits until its task is cancelled (and
/// says so).
private final class SilentResolver: NameResolving {
    let calls = Counter()
    let started: AsyncStream<Void>
    let cancelled: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation
    private let cancelledContinuation: AsyncStream<Void>.Continuation

    init() {
        (started, startedContinuation) = AsyncStream<Void>.makeStream()
        (cancelled, cancelledContinuation) = AsyncStream<Void>.makeStream()
    }

    func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        calls.increment()
        startedContinuation.yield()
        do {
            try await Task.sleep(for: .seconds(3600))  // no answer; only a cancellation ends it
        } catch {
            cancelledContinuation.yield()
            throw error
        }
        return []
    }
}

/// Cancellation reaches a call in every phase of its connection: a cancelled task ends its call with `.cancelled`
/// at once, and the phase it was in lets go of what it held (the lookup, the attempts' sockets, the connection).
@Suite("NativeHTTPClient cancellation in every phase of a call", .timeLimit(.minutes(1)))
struct NativeCancellationTests {
    /// A client whose limits never end a call before the test cancels it (a test task may resume seconds late on
    /// a busy cooperative pool); the suite's time limit still bounds every call.
    private func patientClient(_ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }) -> NativeHTTPClient
    {
        makeClient { configuration in
            configuration.limits = TransportLimits(
                connectTimeout: .seconds(50), idleTimeout: .seconds(50), attemptTimeout: .seconds(50))
            change(&configuration)
        }
    }

    /// Cancels `call` and checks that it ends with `.cancelled` promptly.
    private func expectCancelledPromptly(
        _ call: Task<APIClientError?, Never>, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let start = ContinuousClock.now
        call.cancel()
        let outcome = await awaitingCancellably(call)
        guard case .cancelled = outcome else {
            Issue.record("expected .cancelled, got \(String(describing: outcome))", sourceLocation: sourceLocation)
            return
        }
        #expect(
            seconds(since: start) < TestTimeScale.scaled(seconds: 2, since: start), "no waiting for the phase to end",
            sourceLocation: sourceLocation)
    }

    @Test(
        "During a DNS lookup that never answers: .cancelled, the resolver's task is cancelled, and the next call asks the resolver again"
    )
    func duringLookup() async throws {
        let resolver = SilentResolver()
        let client = patientClient { $0.nameResolver = resolver }
        let request = HTTPRequest(method: .get, baseEndpoint: "http://silent.test:8080")
        var started = resolver.started.makeAsyncIterator()
        var cancelled = resolver.cancelled.makeAsyncIterator()

        let first = Task { await failure(of: request, with: client) }
        await started.next()
        await expectCancelledPromptly(first)
        // The abandoned lookup is stopped, not left holding the connection and the name.
        await cancelled.next()

        // So the name is free: the next call asks the resolver instead of joining the lookup nobody waits for.
        let second = Task { await failure(of: request, with: client) }
        await started.next()
        #expect(resolver.calls.value == 2)
        await expectCancelledPromptly(second)
        await cancelled.next()
    }

    @Test("During a TLS handshake the server never answers: .cancelled, and the connection is closed")
    func duringHandshake() async throws {
        let peer = try SilentPeer { !$0.isEmpty }  // the ClientHello has come
        defer { peer.stop() }
        let client = patientClient()
        var reached = peer.reached.makeAsyncIterator()

        let call = Task {
            await failure(of: HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(peer.port)"), with: client)
        }
        await reached.next()
        await expectCancelledPromptly(call)

        #expect(await peer.clientCloses())
    }

    @Test("While a request body waits for a server that stopped reading: .cancelled, and the connection is closed")
    func duringWrite() async throws {
        let peer = try SilentPeer { Data($0).range(of: Data("\r\n\r\n".utf8)) != nil }  // the head has come
        defer { peer.stop() }
        let client = patientClient()
        var reached = peer.reached.makeAsyncIterator()
        // Far more than the loopback socket buffers hold, so the client is still writing when cancelled.
        let body = HTTPBody.data(Data(count: 32 << 20), contentType: "application/octet-stream")
        let request = HTTPRequest(method: .post, baseEndpoint: "http://127.0.0.1:\(peer.port)", body: body)

        let call = Task { await failure(of: request, with: client) }
        await reached.next()
        await expectCancelledPromptly(call)

        #expect(await peer.clientCloses())
    }

    @Test(
        "A cancellation queued on a busy loop wins over a failure the loop sees first: the call ends with .cancelled"
    )
    func cancellationWinsOverALaterOutcome() async throws {
        let loop = try #require(EventLoop.shared)
        let peer = try SilentPeer { Data($0).range(of: Data("\r\n\r\n".utf8)) != nil }
        defer { peer.stop() }
        let client = patientClient()
        var reached = peer.reached.makeAsyncIterator()
        let call = Task {
            await failure(of: HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:\(peer.port)"), with: client)
        }
        await reached.next()

        // Hold the loop, so that the cancellation waits in its queue while the server hangs up: when the loop runs
        // again it sees the end of the connection (socket events come before queued work) and only then the
        // cancellation, as it would a timeout that falls due while a cancellation waits.
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            loop.execute {
                held.resume()
                _ = gate.wait(timeout: .now() + 5)
            }
        }
        call.cancel()
        peer.hangUp()
        gate.signal()

        guard case .cancelled = await awaitingCancellably(call) else {
            Issue.record("the task was cancelled before the call ended: expected .cancelled")
            return
        }
    }
}
