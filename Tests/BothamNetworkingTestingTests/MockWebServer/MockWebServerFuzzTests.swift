import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("MockWebServer survives arbitrary input", .timeLimit(.minutes(1)))
struct MockWebServerFuzzTests {
    private static let fragments: [[UInt8]] = [
        "GET ", "POST ", "HEAD ", "/", "/path?x=1", " HTTP/1.1", " HTTP/1.0", " HTTP/9.9", "\r\n", "\n", "\r",
        "Host: test", "Content-Length: ", "Transfer-Encoding: chunked", "Expect: 100-continue", "Connection: close",
        "0", "5", "ffffffffffffffffffffffff", "-1", ";ext=1", ": ", ":", " ", "\t", "\u{0}", "\u{7F}",
    ].map { Array($0.utf8) }

    private static func input(seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...40, using: &generator) {
            if Bool.random(using: &generator) {
                bytes += fragments.randomElement(using: &generator) ?? []
            } else {
                bytes.append(UInt8.random(in: 0...255, using: &generator))
            }
        }
        return bytes
    }

    @Test("300 random inputs never crash the server, and it still answers afterwards")
    func randomInput() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }

        for seed in UInt64(1)...300 {
            let connection = try RawHTTPConnection(port: server.port)
            try connection.write(Self.input(seed: seed))
            connection.finishWriting()
            let (_, end) = await connection.readUntilClosed()
            #expect(end != .timedOut, "input with seed \(seed) left the connection hanging")
        }
        server.setDispatcher { _ in MockResponse().withBody("alive") }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n")

        #expect(try await connection.readResponse().bodyText == "alive")
    }
}
