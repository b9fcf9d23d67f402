import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The number of event loops a client asks for", .timeLimit(.minutes(1)))
struct EventLoopCountTests {
    @Test("One loop per core by default, a count clamped to 1...64, and one per core the process may run on")
    func counts() {
        #expect(NativeHTTPClient.Configuration().eventLoops == .automatic)
        #expect(NativeHTTPClient.EventLoopCount.one.count == 1)
        #expect(NativeHTTPClient.EventLoopCount.count(0).count == 1)
        #expect(NativeHTTPClient.EventLoopCount.count(-3).count == 1)
        #expect(NativeHTTPClient.EventLoopCount.count(3).count == 3)
        #expect(NativeHTTPClient.EventLoopCount.count(10_000).count == NativeHTTPClient.EventLoopCount.maximum)
        #expect(NativeHTTPClient.EventLoopCount.maximum == 64)
        let cores = min(max(1, ProcessInfo.processInfo.activeProcessorCount), 64)
        #expect(NativeHTTPClient.EventLoopCount.perCore.count == cores)
        #expect(NativeHTTPClient.EventLoopCount.count(2).description == "2 event loops")
        #expect(NativeHTTPClient.EventLoopCount.automatic.count == cores)
        #expect(NativeHTTPClient.EventLoopCount.automatic != .perCore)
    }

    @Test(
        "By default a client runs a loop per core, at most one per 4 connections of its cap, and one loop when it may speak HTTP/2; a count asked for is kept",
        .enabled(
            if: ProcessInfo.processInfo.activeProcessorCount >= 2, "with one core every count here is 1 (CI has 2)")
    )
    func automaticFollowsTheHTTPVersion() {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let cores = min(ProcessInfo.processInfo.activeProcessorCount, 64)
        func loops(_ change: (inout NativeHTTPClient.Configuration) -> Void) -> Int {
            makeClient(change).taskExecutors.count
        }
        #expect(loops { _ in } == 2, "the default cap of 8: 4 connections for each of 2 loops")
        #expect(loops { $0.maxConnectionsPerHost = 4 * cores } == cores, "one per core when the cap allows")
        #expect(loops { $0.maxConnectionsPerHost = 7 } == 1, "7 connections: one loop keeps them all")
        for version in [NativeHTTPClient.HTTPVersionPolicy.preferHTTP2, .http2Only, .http2PriorKnowledge] {
            #expect(loops { $0.httpVersion = version } == 1, "\(version): one connection per origin, on one loop")
            let asked = loops {
                $0.httpVersion = version
                $0.eventLoops = .count(2)
            }
            #expect(asked == 2, "\(version), 2 loops asked")
        }
        #expect(loops { $0.eventLoops = .count(2) } == 2)
        #expect(loops { $0.eventLoops = .one } == 1)
    }
}

@Suite(
    "NativeHTTPClient on several event loops", .timeLimit(.minutes(1)),
    .enabled(if: taskExecutorsAvailable, "task executors need macOS 15 / iOS 18"))
struct NativeEventLoopsTests {
    @Test(
        "A client with n loops offers n executors on n threads: the first is taskExecutor, the one-loop clients' thread"
    )
    func executorsPerLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await executorsBody() }
    }

    @Test("A call made on a loop runs its exchange on that loop's thread and resumes there: no thread switch")
    func callStaysOnItsLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await staysOnLoopBody() }
    }

    @Test("Each loop keeps its own kept-alive connection: calls on two loops use two connections, each reused")
    func keepAlivePerLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await keepAliveBody() }
    }

    @Test("maxConnectionsPerHost is the total across loops: 4 over 3 loops opens exactly 4 sockets for 24 calls")
    func capIsTheTotal() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await capBody() }
    }

    @Test("A cap below the loop count uses as many loops as the cap: 2 connections, 4 loops asked, 2 used")
    func capBelowLoopCount() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await smallCapBody() }
    }

    @Test("Calls from elsewhere go to the least busy loop: 8 at once use both loops, then one at a time reuse one")
    func callsFromElsewhereSpread() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await spreadBody() }
    }

    @Test(
        "A streamed body keeps its loop busy until it ends: with a share of 1 each, the next call takes the other loop")
    func openStreamKeepsItsLoopBusy() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await openStreamBody() }
    }

    @Test("On a second loop, cancelling a call ends it with .cancelled and a silent server times out")
    func cancellationAndTimeoutOnASecondLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            try await cancellationAndTimeoutBody()
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension NativeEventLoopsTests {
    /// The thread `executor` runs its jobs on.
    static func thread(of executor: any TaskExecutor) async -> UInt {
        await withTaskExecutorPreference(executor) { UInt(pthread_self()) }
    }

    /// A server answering `ok` after `delay`, recording the server-side connection of every request.
    static func recordingServer(delay: Duration = .zero) throws -> (MockWebServer, Recorder<Int>) {
        let connections = Recorder<Int>()
        let server = try makeServer { request in
            connections.append(request.connectionIndex)
            return MockResponse().withHeadersDelay(delay).withBody("ok")
        }
        return (server, connections)
    }

    /// Sends `request` and returns its response with the threads its progress was reported on (the loop thread
    /// that ran the exchange).
    static func send(_ request: HTTPRequest, with client: NativeHTTPClient) async throws -> (HTTPResponse, Set<UInt>) {
        let threads = Lock<Set<UInt>>([])
        let reporter = TransferProgress.Reporter { _ in threads.withLock { _ = $0.insert(UInt(pthread_self())) } }
        let response = try await TransferProgress.Reporter.$current.withValue(reporter) {
            try await client.send(request)
        }
        return (response, threads.withLock { $0 })
    }

    func executorsBody() async throws {
        let oneLoop = try #require(makeClient().taskExecutor)
        let client = makeClient { $0.eventLoops = .count(3) }
        let executors = client.taskExecutors
        try #require(executors.count == 3)
        var threads: [UInt] = []
        for executor in executors { threads.append(await Self.thread(of: executor)) }
        #expect(Set(threads).count == 3, "one thread per loop")
        let first = try #require(client.taskExecutor)
        #expect(await Self.thread(of: first) == threads[0], "taskExecutor is the first loop")
        #expect(await Self.thread(of: oneLoop) == threads[0], "the first loop is the one every one-loop client uses")
        let other = makeClient { $0.eventLoops = .count(2) }
        var otherThreads: [UInt] = []
        for executor in other.taskExecutors { otherThreads.append(await Self.thread(of: executor)) }
        #expect(otherThreads == Array(threads.prefix(2)), "a client asking for fewer loops gets the first ones")
    }

    func staysOnLoopBody() async throws {
        let (server, _) = try Self.recordingServer()
        defer { server.shutdown() }
        let client = makeClient { $0.eventLoops = .count(2) }
        let executors = client.taskExecutors
        try #require(executors.count == 2)
        for (index, executor) in executors.enumerated() {
            let loopThread = await Self.thread(of: executor)
            for _ in 0..<2 {  // a new connection, then a reused one
                let (before, response, reported, after) = try await withTaskExecutorPreference(executor) {
                    let before = UInt(pthread_self())
                    let (response, reported) = try await Self.send(get(server, "/on\(index)"), with: client)
                    return (before, response, reported, UInt(pthread_self()))
                }
                #expect(response.statusCode == 200)
                #expect(before == loopThread && after == loopThread, "loop \(index): the task never left its loop")
                #expect(reported == [loopThread], "loop \(index): the exchange ran on the task's own loop")
            }
        }
    }

    func keepAliveBody() async throws {
        let (server, connections) = try Self.recordingServer()
        defer { server.shutdown() }
        let client = makeClient { $0.eventLoops = .count(2) }
        let executors = client.taskExecutors
        try #require(executors.count == 2)
        var reused: [[Bool?]] = [[], []]
        for _ in 0..<3 {
            for (index, executor) in executors.enumerated() {
                let response = try await withTaskExecutorPreference(executor) { try await client.send(get(server)) }
                #expect(response.statusCode == 200)
                reused[index].append(response.timings?.reusedConnection)
            }
        }
        #expect(
            reused == [[false, true, true], [false, true, true]], "each loop opens one connection, then reuses it")
        let seen = connections.values
        #expect(Set(seen).count == 2, "two connections at the server: \(seen)")
        // Loop 0's calls are requests 0, 2, 4, loop 1's 1, 3, 5: each loop's on one connection of its own.
        #expect(
            seen[0] == seen[2] && seen[2] == seen[4] && seen[1] == seen[3] && seen[3] == seen[5] && seen[0] != seen[1])
    }

    /// `count` calls at once, spread over `executors` and the cooperative pool (one in every `executors.count + 1`).
    static func burst(
        _ count: Int, to server: MockWebServer, with client: NativeHTTPClient, executors: [any TaskExecutor]
    ) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                let slot = index % (executors.count + 1)
                let executor = slot < executors.count ? executors[slot] : nil
                group.addTask(executorPreference: executor) {
                    try await client.send(get(server, "/burst\(index)")).statusCode
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    func capBody() async throws {
        let (server, connections) = try Self.recordingServer(delay: .milliseconds(150))
        defer { server.shutdown() }
        let client = makeClient { configuration in
            configuration.eventLoops = .count(3)
            configuration.maxConnectionsPerHost = 4
        }
        let executors = client.taskExecutors
        try #require(executors.count == 3)
        let statuses = try await Self.burst(24, to: server, with: client, executors: executors)
        #expect(statuses == Array(repeating: 200, count: 24))
        // Shares of 2, 1 and 1: every loop had calls waiting, so every share was used and none exceeded.
        let seen = Set(connections.values)
        #expect(seen.count == 4, "the server accepted \(seen.count) connections")
    }

    func smallCapBody() async throws {
        let (server, connections) = try Self.recordingServer(delay: .milliseconds(100))
        defer { server.shutdown() }
        let client = makeClient { configuration in
            configuration.eventLoops = .count(4)
            configuration.maxConnectionsPerHost = 2
        }
        let executors = client.taskExecutors
        #expect(executors.count == 2)
        let statuses = try await Self.burst(8, to: server, with: client, executors: executors)
        #expect(statuses == Array(repeating: 200, count: 8))
        let seen = Set(connections.values)
        #expect(seen.count == 2, "the server accepted \(seen.count) connections")
    }

    func spreadBody() async throws {
        let (server, connections) = try Self.recordingServer(delay: .milliseconds(200))
        defer { server.shutdown() }
        // Shares of 4 and 4: 8 calls on one loop would open 4 connections and wait for them.
        let client = makeClient { $0.eventLoops = .count(2) }
        let executors = client.taskExecutors
        try #require(executors.count == 2)
        let loopThreads = Set([await Self.thread(of: executors[0]), await Self.thread(of: executors[1])])
        let results = try await withThrowingTaskGroup(of: (Int, Set<UInt>).self) { group in
            for index in 0..<8 {
                group.addTask(executorPreference: nil) {
                    let (response, threads) = try await Self.send(get(server, "/spread\(index)"), with: client)
                    return (response.statusCode, threads)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.map(\.0) == Array(repeating: 200, count: 8))
        #expect(results.reduce(into: Set<UInt>()) { $0.formUnion($1.1) } == loopThreads, "both loops ran exchanges")
        #expect(Set(connections.values).count == 8, "8 connections at once, 4 per loop")
        // One call at a time goes to the first loop every time (no other call of this client is in flight) and
        // reuses its most recent connection.
        let before = connections.count
        for _ in 0..<4 { #expect(try await client.send(get(server)).statusCode == 200) }
        let sequential = Array(connections.values.dropFirst(before))
        #expect(sequential.count == 4 && Set(sequential).count == 1, "one connection carried them: \(sequential)")
        #expect(Set(connections.values).count == 8, "no new connection")
    }

    func openStreamBody() async throws {
        let server = try makeServer { request in
            guard request.path == "/stream" else { return MockResponse().withBody("ok") }
            return MockResponse().streaming([.init(Data("a".utf8)), .init(Data("b".utf8), after: .seconds(20))])
        }
        defer { server.shutdown() }
        // A cap of 2 over 2 loops: one connection each. The stream holds the first loop's for 20 s.
        let client = makeClient {
            $0.eventLoops = .count(2)
            $0.maxConnectionsPerHost = 2
            $0.limits.idleTimeout = .seconds(30)
        }
        let stream = try await client.send(get(server, "/stream").withResponseDestination(.stream))
        let body = try #require(stream.bodyStream)

        // Counted as idle, the first loop would take the call and keep it waiting for the stream's connection.
        let next = get(server, "/next").withTimeout(TestTimeScale.scaled(.seconds(2)))
        let (response, threads) = try await Self.send(next, with: client)

        #expect(response.statusCode == 200)
        #expect(threads == [await Self.thread(of: client.taskExecutors[1])], "the second loop answered")
        // When the stream ends, its loop is idle again: the next call from elsewhere goes back to the first (ties go
        // to the first loop), which would never happen if the stream's end were not counted.
        body.cancel()  // ends the stream at once, and with it the count (its end observers run inside cancel())
        let (after, afterThreads) = try await Self.send(get(server, "/after"), with: client)
        #expect(after.statusCode == 200)
        #expect(afterThreads == [await Self.thread(of: client.taskExecutors[0])], "the first loop answered again")
    }

    func cancellationAndTimeoutBody() async throws {
        let (server, arrivals) = try hangingServer()
        defer { server.shutdown() }
        let client = makeClient { configuration in
            configuration.eventLoops = .count(2)
            configuration.limits.idleTimeout = .seconds(50)
            configuration.limits.attemptTimeout = .seconds(50)
        }
        let second = try #require(client.taskExecutors.last)
        let call = Task(executorPreference: second) { await failure(of: get(server, "/hang"), with: client) }
        var iterator = arrivals.makeAsyncIterator()
        await iterator.next()
        let start = ContinuousClock.now
        call.cancel()
        let outcome = await awaitingCancellably(call)
        guard case .cancelled = outcome else {
            Issue.record("expected .cancelled, got \(String(describing: outcome))")
            return
        }
        #expect(seconds(since: start) < TestTimeScale.scaled(seconds: 10.0, since: start), "no waiting for the server")

        let timing = makeClient { configuration in
            configuration.eventLoops = .count(2)
            configuration.limits.idleTimeout = .milliseconds(300)
        }
        let timingSecond = try #require(timing.taskExecutors.last)
        let timedOut = await withTaskExecutorPreference(timingSecond) {
            await failure(of: get(server, "/silent"), with: timing)
        }
        guard case .timeout = timedOut else {
            Issue.record("expected .timeout, got \(String(describing: timedOut))")
            return
        }
    }
}
