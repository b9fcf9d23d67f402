import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if os(Linux)
    @Suite("A dropped NativeHTTPClient leaves no thread and no descriptor behind", .timeLimit(.minutes(1)))
    struct NativeHTTPClientLifecycleTests {
        /// The number of this process's descriptors that are TCP sockets connected to `port` (client ends only: the
        /// server's own sockets have `port` as their local port).
        static func descriptorsConnected(toPort port: Int) -> Int {
            var inodes = Set<String>()
            for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
                guard let text = ProcFile.read(table) else { continue }
                for line in text.split(separator: "\n").dropFirst() {
                    let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard columns.count > 9, let remotePort = columns[2].split(separator: ":").last,
                        Int(remotePort, radix: 16) == port
                    else { continue }
                    inodes.insert(String(columns[9]))
                }
            }
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.count { descriptor in
                guard
                    let target = try? FileManager.default.destinationOfSymbolicLink(
                        atPath: "/proc/self/fd/\(descriptor)")
                else { return false }
                return target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
            }
        }

        /// The thread the client's event loop runs on: a job on its executor reads it. (Counting threads
        /// by name is not reliable: Linux keeps 15 bytes of a name, and dispatch threads of other tests running in
        /// parallel share the `BothamNetworkin` prefix.)
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        static func loopThreadID(of client: NativeHTTPClient) async -> UInt? {
            guard let executor = client.taskExecutor else { return nil }
            return await withTaskExecutorPreference(executor) { UInt(pthread_self()) }
        }

        @Test("its kept-alive connections close when the last reference goes, and clients share one loop thread")
        func droppedClientClosesItsConnections() async throws {
            let server = try makeServer { _ in MockResponse().withBody("ok") }
            defer { server.shutdown() }
            weak var dropped: NativeHTTPClient?
            var loopThread: UInt?
            do {
                let clients = (0..<3).map { _ in makeClient() }
                for client in clients {
                    for _ in 0..<2 {
                        let request = HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/")
                        #expect(try await client.send(request).statusCode == 200)
                    }
                }
                dropped = clients.first
                #expect(Self.descriptorsConnected(toPort: server.port) == 3)  // one idle connection per client
                var loops = Set<UInt>()
                for client in clients { loops.insert(try #require(await Self.loopThreadID(of: client))) }
                #expect(loops.count == 1, "every client runs on the one shared loop thread")
                loopThread = loops.first
            }
            #expect(dropped == nil)
            #expect(await eventually { Self.descriptorsConnected(toPort: server.port) == 0 })
            // The shared loop outlives its clients (no thread is started or stopped per client), and a new client
            // runs on it again.
            let shared = try #require(loopThread)
            #expect(await Self.loopThreadID(of: makeClient()) == shared)
        }

        @Test(
            "clients asking for two loops share two loop threads, the first the one-loop thread, kept after they go"
        )
        func clientsOnTwoLoopsShareTwoThreads() async throws {
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return }
            let server = try makeServer { _ in MockResponse().withBody("ok") }
            defer { server.shutdown() }
            let oneLoopThread = try #require(await Self.loopThreadID(of: makeClient()))
            var loopThreads: [UInt] = []
            do {
                let clients = (0..<2).map { _ in makeClient { $0.eventLoops = .count(2) } }
                var threads = Set<UInt>()
                for client in clients {
                    let executors = client.taskExecutors
                    try #require(executors.count == 2)
                    for executor in executors {
                        threads.insert(await withTaskExecutorPreference(executor) { UInt(pthread_self()) })
                        for _ in 0..<2 {
                            let request = HTTPRequest(
                                method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/")
                            let status = try await withTaskExecutorPreference(executor) {
                                try await client.send(request).statusCode
                            }
                            #expect(status == 200)
                        }
                    }
                }
                // One idle connection per loop per client: each loop's pool is the client's own.
                #expect(Self.descriptorsConnected(toPort: server.port) == 4)
                #expect(threads.count == 2, "both clients run on the same two loop threads")
                #expect(threads.contains(oneLoopThread), "the first of them is the one-loop clients' thread")
                for executor in clients[0].taskExecutors {
                    loopThreads.append(await withTaskExecutorPreference(executor) { UInt(pthread_self()) })
                }
            }
            #expect(await eventually { Self.descriptorsConnected(toPort: server.port) == 0 })
            // The loops outlive their clients: a new client asking for two gets the same two threads, in order.
            let again = makeClient { $0.eventLoops = .count(2) }
            var againThreads: [UInt] = []
            for executor in again.taskExecutors {
                againThreads.append(await withTaskExecutorPreference(executor) { UInt(pthread_self()) })
            }
            #expect(againThreads == loopThreads)
        }

        @Test(
            "a call in flight holds its client: dropping the only reference while the response is pending still gets 200"
        )
        func callInFlightHoldsItsClient() async throws {
            let server = try makeServer { _ in MockResponse().withHeadersDelay(.milliseconds(300)).withBody("ok") }
            defer { server.shutdown() }
            let request = HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: "/slow")
            var client: NativeHTTPClient? = makeClient()
            weak let dropped = client
            // The task does not hold the client: only the call it starts does, while it runs.
            let call = Task { [weak client] () async throws(APIClientError) -> Int? in
                try await client?.send(request).statusCode
            }
            // The request has reached the server, whose answer waits 300 ms: the call is in flight.
            _ = try await server.takeRequest()
            client = nil

            #expect(try await awaitingCancellably(call) == 200)
            #expect(await eventually { dropped == nil }, "the call let its client go when it ended")
            #expect(await eventually { Self.descriptorsConnected(toPort: server.port) == 0 })
        }
    }
#endif
