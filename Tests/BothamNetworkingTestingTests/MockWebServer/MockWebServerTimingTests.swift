import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("MockWebServer delays and throttling", .timeLimit(.minutes(1)))
struct MockWebServerTimingTests {
    @Test("withHeadersDelay holds the status line back for at least the delay")
    func headersDelay() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("late").withHeadersDelay(.milliseconds(250)))
        let connection = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()

        let start = clock.now
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try await connection.readResponse()
        let elapsed = clock.now - start

        #expect(response.bodyText == "late")
        #expect(elapsed >= .milliseconds(250))
    }

    @Test("throttled sends the body slice by slice, taking at least the sum of the pauses")
    func throttle() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("12345").throttled(bytes: 1, per: .milliseconds(60)))
        let connection = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()

        let start = clock.now
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let response = try await connection.readResponse()
        let elapsed = clock.now - start

        #expect(response.bodyText == "12345")
        #expect(elapsed >= .milliseconds(4 * 60))
    }

    @Test("shutdown interrupts a headers delay at once")
    func shutdownInterruptsDelay() async throws {
        let server = try MockWebServer()
        server.enqueue(MockResponse().withHeadersDelay(.seconds(30)))
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        let clock = ContinuousClock()

        let start = clock.now
        server.shutdown()

        #expect(clock.now - start < TestTimeScale.scaled(.seconds(1)))
        #expect(await connection.isClosedByServer())
    }
}
