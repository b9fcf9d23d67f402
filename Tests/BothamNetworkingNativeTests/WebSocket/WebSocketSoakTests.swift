import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

#if os(Linux)
    /// Many WebSockets at once against the Python `websockets` server: run by `.ci/run` with `BOTHAM_WS_SOAK=1`
    /// (a plain `swift test` skips it, to stay fast).
    @Suite(
        "WebSocket soak: a thousand sockets open, exchange and close, leaving nothing behind",
        .timeLimit(.minutes(3)),
        .enabled(
            if: ProcessInfo.processInfo.environment["BOTHAM_WS_SOAK"] == "1",
            "BOTHAM_WS_SOAK is not 1: .ci/run sets it (with scripts/ws-servers.sh running)"),
        WebSocketServers.needsWebsockets)
    struct WebSocketSoakTests {
        @Test("1,000 sockets open at once, each echoes a message and closes; no descriptor or socket outlives them")
        func thousandSockets() async throws {
            let address = try #require(WebSocketServers.websockets)
            let port = try #require(address.split(separator: ":").last.flatMap { Int($0) })
            var configuration = NativeHTTPClient.Configuration()
            configuration.maxConnectionsPerHost = 64
            let client = BothamAPIClient(
                baseEndpoint: "ws://\(address)", httpClient: NativeHTTPClient(configuration: configuration))
            let count = 1_000
            let weakSockets = Lock<[WeakSocket]>([])
            let allOpen = Barrier(parties: count)
            let echoed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let socket = try await client.webSocket("/echo")
                        weakSockets.withLock { $0.append(WeakSocket(socket)) }
                        // Every socket is open at once before any exchanges or closes.
                        try await allOpen.arrive()
                        try await socket.send(.text("socket \(index)"))
                        var iterator = socket.messages.makeAsyncIterator()
                        let answer = try await iterator.next()
                        await socket.close()
                        return answer == .text("socket \(index)") && socket.closeCode == .normalClosure
                    }
                }
                var echoed = 0
                for try await ok in group where ok { echoed += 1 }
                return echoed
            }
            #expect(echoed == count)
            #expect(NativeHTTPClientLifecycleTests.descriptorsConnected(toPort: port) == 0)
            #expect(weakSockets.withLock { $0.allSatisfy { $0.socket == nil } })
        }
    }

    /// Holds every party until the last one arrives. Built on `Latch`, so a party whose task is cancelled (the group
    /// cancels the rest when one open fails) stops waiting instead of hanging the run.
    private final class Barrier: Sendable {
        private let parties: Int
        private let arrived = Lock(0)
        private let latch = Latch()

        init(parties: Int) {
            self.parties = parties
        }

        /// Arrives and waits for the others; throws `CancellationError` when the task is cancelled first.
        func arrive() async throws {
            let count = arrived.withLock { count in
                count += 1
                return count
            }
            if count >= parties { latch.open() }
            guard await latch.wait() else { throw CancellationError() }
        }
    }

    /// A socket held weakly, to see that nothing keeps it once its task is done.
    private struct WeakSocket: @unchecked Sendable {
        // Read only after every task that made one has finished (the task group joined).
        weak var socket: WebSocket?

        init(_ socket: WebSocket) {
            self.socket = socket
        }
    }
#endif
