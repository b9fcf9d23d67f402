import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("MockWebServer shutdown and resource cleanup", .timeLimit(.minutes(1)))
struct MockWebServerLifecycleTests {
    @Test("shutdown returns within a second with an idle keep-alive connection open, and closes it")
    func shutdownWithIdleConnection() async throws {
        let server = try MockWebServer()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        _ = try await connection.readResponse()
        let clock = ContinuousClock()

        let start = clock.now
        server.shutdown()
        let elapsed = clock.now - start

        #expect(elapsed < TestTimeScale.scaled(.seconds(1), since: start))
        #expect(await connection.isClosedByServer())
        #expect(server.isShutDown)
    }

    @Test("shutdown returns within a second while a client is halfway through sending a request")
    func shutdownWithPartialRequest() async throws {
        let server = try MockWebServer()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\npart")
        let clock = ContinuousClock()

        let start = clock.now
        server.shutdown()

        #expect(clock.now - start < TestTimeScale.scaled(.seconds(1)))
        #expect(await connection.isClosedByServer())
    }

    @Test("after shutdown no descriptor the server opened is left open and no thread is running")
    func noLeakedDescriptorsOrThreads() async throws {
        let server = try MockWebServer()
        let idle = try RawHTTPConnection(port: server.port)
        try idle.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        _ = try await idle.readResponse()
        let closed = try RawHTTPConnection(port: server.port)
        try closed.write("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        _ = try await closed.readResponse()
        let identities = server.descriptorIdentities

        let openWhileRunning = try OpenDescriptors.count(matching: identities)
        server.shutdown()
        let openAfterShutdown = try OpenDescriptors.count(matching: identities)

        // Listener, the two ends of the wake pipe and two accepted connections.
        #expect(identities.count == 5)
        #expect(openWhileRunning >= 4)
        #expect(openAfterShutdown == 0)
        #expect(server.openDescriptorCount == 0)
        #expect(server.runningThreadCount == 0)
    }

    @Test("releasing the last reference shuts the server down and closes its descriptors")
    func deinitShutsDown() async throws {
        var identities: [DescriptorIdentity] = []
        do {
            let server = try MockWebServer()
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
            _ = try await connection.readResponse()
            identities = server.descriptorIdentities
        }

        #expect(identities.count == 4)
        #expect(try OpenDescriptors.count(matching: identities) == 0)
    }

    @Test("a dispatcher that captures the server does not keep it alive after shutdown")
    func dispatcherCapturingServer() throws {
        weak var weakServer: MockWebServer?
        do {
            let server = try MockWebServer()
            weakServer = server
            server.setDispatcher { [server] _ in MockResponse().withBody("port \(server.port)") }
            server.shutdown()
        }

        #expect(weakServer == nil)
    }

    @Test("shutdown is idempotent")
    func shutdownTwice() throws {
        let server = try MockWebServer()

        server.shutdown()
        server.shutdown()

        #expect(server.isShutDown)
        #expect(server.openDescriptorCount == 0)
    }

    @Test("recorded requests can still be taken after shutdown, then takeRequest throws serverShutDown")
    func takeRequestAfterShutdown() async throws {
        let server = try MockWebServer()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET /recorded HTTP/1.1\r\nHost: test\r\n\r\n")
        _ = try await connection.readResponse()

        server.shutdown()

        #expect(try await server.takeRequest().path == "/recorded")
        await #expect(throws: MockWebServerError.serverShutDown) {
            try await server.takeRequest(timeout: .seconds(30))
        }
    }

    @Test("a pending takeRequest fails with serverShutDown when the server shuts down")
    func pendingTakeRequestFailsOnShutdown() async throws {
        let server = try MockWebServer()
        let waiting = Task { try await server.takeRequest(timeout: .seconds(30)) }

        server.shutdown()

        await #expect(throws: MockWebServerError.serverShutDown) {
            try await awaitingCancellably(waiting)
        }
    }

    @Test("many short connections are served and their threads are reaped")
    func manyConnections() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }

        for index in 0..<100 {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write("GET /\(index) HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            _ = try await connection.readResponse()
            #expect(await connection.isClosedByServer())
        }

        #expect(server.requestCount == 100)
        #expect(server.runningThreadCount < 10)
    }
}
