import BothamHTTP2Wire
import Foundation
import Testing

@testable import BothamNetworkingNative

/// The servers `scripts/h2-servers.sh` starts, from the variables it writes.
enum H2CServers {
    static let environment = ProcessInfo.processInfo.environment
    static let nginx = environment["BOTHAM_TEST_H2C_NGINX"]
    static let nginxGoAway = environment["BOTHAM_TEST_H2C_NGINX_GOAWAY"]
    static let nginxRoot = environment["BOTHAM_TEST_H2C_NGINX_ROOT"]
    static let hypercorn = environment["BOTHAM_TEST_H2C_HYPERCORN"]
    static let faults = environment["BOTHAM_TEST_H2C_FAULTS"]
    static let needsNginx = ConditionTrait.enabled(
        if: nginx != nil && nginxGoAway != nil && nginxRoot != nil,
        "BOTHAM_TEST_H2C_NGINX is not set: run scripts/h2-servers.sh start and eval its env (.ci/run does)")
    static let needsFaults = ConditionTrait.enabled(
        if: faults != nil,
        "BOTHAM_TEST_H2C_FAULTS is not set: run scripts/h2-servers.sh start and eval its env (.ci/run does)")
    static let needsHypercorn = ConditionTrait.enabled(
        if: hypercorn != nil,
        "BOTHAM_TEST_H2C_HYPERCORN is not set: run scripts/h2-servers.sh start and eval its env (.ci/run does)")

    /// The octets of `count` where octet i is i % 251, as h2_app.py and big.bin hold them.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }

    /// A file nginx serves.
    static func file(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try #require(nginxRoot)).appendingPathComponent(name)))
    }
}

/// ``HTTP2ClientConnection`` against two independent real servers on loopback, in cleartext HTTP/2 with prior
/// knowledge: nginx (Debian's) and hypercorn (PyPI), started by `scripts/h2-servers.sh` (`.ci/run` does).
@Suite("HTTP/2 connection against nginx and hypercorn (h2c, on loopback)", .timeLimit(.minutes(1)))
struct HTTP2InteropTests {
    @Test("nginx: a GET with prior knowledge comes back whole, with its fields", H2CServers.needsNginx)
    func nginxGet() async throws {
        let address = try #require(H2CServers.nginx)
        let response = try await BlockingHTTP2Driver.exchange(address, "GET", "/small.txt")

        #expect(response?.status == 200)
        #expect(response?.body == Array("hello from nginx over h2c\n".utf8))
        #expect(response?.fields.contains(HPACKHeaderField(name: "content-length", value: "26")) == true)
        #expect(response?.ended == true)
    }

    @Test("nginx: a HEAD response carries the file's content-length and no body", H2CServers.needsNginx)
    func nginxHead() async throws {
        let address = try #require(H2CServers.nginx)
        let response = try await BlockingHTTP2Driver.exchange(address, "HEAD", "/small.txt")

        #expect(response?.status == 200)
        #expect(response?.fields.contains(HPACKHeaderField(name: "content-length", value: "26")) == true)
        #expect(response?.body.isEmpty == true)
        #expect(response?.ended == true, "\(String(describing: response?.failure))")
    }

    @Test(
        "nginx: a 4 MiB body through 256 KiB windows arrives whole: the windows are granted again as it is read",
        H2CServers.needsNginx)
    func nginxFlowControl() async throws {
        let address = try #require(H2CServers.nginx)
        let expected = try H2CServers.file("big.bin")
        let response = try await BlockingHTTP2Driver.exchange(
            address, "GET", "/big.bin",
            configuration: HTTP2ConnectionConfiguration(streamWindow: 256 << 10, connectionWindow: 256 << 10))

        // Sixteen windows' worth: the server stops at each window's end until we grant it again.
        #expect(response?.body.count == 4 << 20)
        #expect(response?.body == expected)
    }

    @Test("nginx: twenty requests at once share one connection and each gets its own body", H2CServers.needsNginx)
    func nginxMultiplexing() async throws {
        let address = try #require(H2CServers.nginx)
        let small = Array("hello from nginx over h2c\n".utf8)
        let big = try H2CServers.file("big.bin")
        let responses = try await Loopback.blocking {
            let driver = try BlockingHTTP2Driver(address)
            let streams = try (0..<20).map { try driver.open("GET", $0.isMultiple(of: 4) ? "/big.bin" : "/small.txt") }
            try driver.finish()
            return streams.map { driver.responses[$0] }
        }

        #expect(responses.count == 20)
        for (index, response) in responses.enumerated() {
            #expect(response?.status == 200)
            #expect(response?.body == (index.isMultiple(of: 4) ? big : small), "stream \(index)")
        }
    }

    @Test(
        "nginx: after its request limit GOAWAY refuses the streams above its last, which were never processed",
        H2CServers.needsNginx)
    func nginxGoAway() async throws {
        let address = try #require(H2CServers.nginxGoAway)
        let (responses, events) = try await Loopback.blocking {
            let driver = try BlockingHTTP2Driver(address)
            let streams = try (0..<6).map { _ in try driver.open("GET", "/small.txt") }
            try driver.finish()
            return (streams.map { driver.responses[$0] }, driver.events)
        }

        let completed = responses.filter { $0?.status == 200 && $0?.ended == true }
        let refused = responses.filter { $0?.failure == .refused }
        #expect(completed.count == 3, "keepalive_requests 3")
        #expect(refused.count == 3, "\(responses.map { String(describing: $0?.failure) })")
        #expect(events.contains { if case .goingAway(let last, .noError, _) = $0 { last == 5 } else { false } })
    }

    @Test(
        "hypercorn: a 300 KB upload goes out within the server's windows and comes back byte for byte",
        H2CServers.needsHypercorn)
    func hypercornEcho() async throws {
        let address = try #require(H2CServers.hypercorn)
        let body = H2CServers.pattern(300_000)
        let response = try await BlockingHTTP2Driver.exchange(address, "POST", "/echo", body: body)

        #expect(response?.status == 200)
        #expect(response?.fields.contains(HPACKHeaderField(name: "x-received-length", value: "300000")) == true)
        #expect(response?.body == body)
    }

    @Test("hypercorn: ten uploads and ten downloads at once on one connection", H2CServers.needsHypercorn)
    func hypercornMultiplexing() async throws {
        let address = try #require(H2CServers.hypercorn)
        let responses = try await Loopback.blocking {
            let driver = try BlockingHTTP2Driver(address)
            var streams: [(HTTP2StreamID, [UInt8])] = []
            for index in 0..<10 {
                let upload = H2CServers.pattern(20_000 * (index + 1))
                streams.append((try driver.open("POST", "/echo", body: upload), upload))
                let size = 50_000 * (index + 1)
                streams.append((try driver.open("GET", "/bytes/\(size)"), H2CServers.pattern(size)))
            }
            try driver.finish()
            return streams.map { (driver.responses[$0.0], $0.1) }
        }

        for (response, expected) in responses {
            #expect(response?.status == 200)
            #expect(response?.body == expected)
        }
    }
}
