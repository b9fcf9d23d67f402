import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Whether task executors exist here (macOS 15 / iOS 18 and later on Apple platforms, always on Linux).
let taskExecutorsAvailable: Bool = {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { return true }
    return false
}()

@Suite(
    "NativeHTTPClient on its own task executor", .timeLimit(.minutes(1)),
    .enabled(if: taskExecutorsAvailable, "task executors need macOS 15 / iOS 18"))
struct NativeTaskExecutorTests {
    @Test("Calls from tasks that prefer the loop's executor complete, one after another and 16 at once")
    func callsOnTheLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await callsOnTheLoopBody() }
    }

    @Test("Cancelling a call that runs on the loop's executor ends it with .cancelled")
    func cancellationOnTheLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            try await cancellationOnTheLoopBody()
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension NativeTaskExecutorTests {
    func callsOnTheLoopBody() async throws {
        let server = try makeServer { request in MockResponse(body: Data(request.target.utf8)) }
        defer { server.shutdown() }
        let client = makeClient()
        let executor = try #require(client.taskExecutor)
        let targets = try await withTaskExecutorPreference(executor) {
            var targets: [String] = []
            for index in 0..<5 {
                targets.append(String(decoding: try await client.send(get(server, "/s\(index)")).body, as: UTF8.self))
            }
            return try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        String(decoding: try await client.send(get(server, "/c\(index)")).body, as: UTF8.self)
                    }
                }
                for try await target in group { targets.append(target) }
                return targets
            }
        }
        #expect(targets.prefix(5) == ["/s0", "/s1", "/s2", "/s3", "/s4"])
        #expect(Set(targets.dropFirst(5)) == Set((0..<16).map { "/c\($0)" }))
    }

    func cancellationOnTheLoopBody() async throws {
        let arrivedAt = Lock<ContinuousClock.Instant?>(nil)
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let server = try makeServer { _ in
            arrivedAt.withLock { $0 = .now }
            arrived.yield()
            return .hang
        }
        defer { server.shutdown() }
        // The call runs on the loop thread, which the rest of the suite leaves free, while this test resumes on the
        // cooperative pool, which every test of the process shares: under ThreadSanitizer the pool has been seen
        // to resume it 5.7 and 8.2 s after the request arrived. So no limit may end the call before the test gets
        // to cancel it (the suite's time limit still bounds it); the promptness checked is from `cancel()` on.
        let client = makeClient { configuration in
            configuration.limits.idleTimeout = .seconds(50)
            configuration.limits.attemptTimeout = .seconds(50)
        }
        let executor = try #require(client.taskExecutor)
        let call = Task(executorPreference: executor) { await failure(of: get(server, "/hang"), with: client) }
        var iterator = arrivals.makeAsyncIterator()
        await iterator.next()
        let start = ContinuousClock.now
        call.cancel()
        let outcome = await awaitingCancellably(call)
        guard case .cancelled = outcome else {
            let late = arrivedAt.withLock { $0 }.map { start - $0 }
            Issue.record(
                "expected .cancelled, got \(String(describing: outcome)); cancel() came \(String(describing: late)) after the request reached the server"
            )
            return
        }
        // Every limit is 50 s, so well under that proves the call did not wait for the server; the bound is loose
        // because `await call.value` resumes on the shared cooperative pool (seen 3.1 s late under full-suite load).
        #expect(seconds(since: start) < TestTimeScale.scaled(seconds: 10.0, since: start), "no waiting for the server")
    }
}
