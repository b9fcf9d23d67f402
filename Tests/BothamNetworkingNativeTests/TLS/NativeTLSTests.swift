import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient TLS against nginx",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class NativeTLSTests {
    private let server: NginxTLSServer

    init() async throws {
        server = try await NginxTLSServer.start()
    }

    deinit {
        server.stop()
    }

    private func client(trusting roots: TLSConfiguration.TrustRoots, pins: [String]? = nil) -> NativeHTTPClient {
        makeClient {
            $0.tls.trustRoots = roots
            if let pins { $0.tls.pinnedPublicKeys = ["localhost": pins] }
        }
    }

    private func url(_ host: String = "localhost", _ path: String = "/hello.txt") -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "https://\(host):\(server.port)", path: path)
    }

    private func tlsError(_ error: APIClientError?) -> TLSError? {
        guard case .networkError(let failure) = error, failure.kind == .secureConnectionFailed else { return nil }
        return failure.underlying as? TLSError
    }

    @Test("A server certificate signed by a custom root verifies, and large bodies arrive whole over TLS")
    func customRoot() async throws {
        let client = client(trusting: .pem(server.caPEM))
        let response = try await client.send(url())
        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello over TLS".utf8))
        let big = try await client.send(url("localhost", "/big.txt"))
        #expect(big.body.count == 320_000)
        #expect(big.body == Data(String(repeating: "0123456789abcdef", count: 20_000).utf8))
        #expect(big.headers[.contentLength] == "320000")
    }

    @Test("Without the custom root the chain does not verify")
    func systemRootsReject() async {
        let error = await failure(of: url(), with: client(trusting: .system))
        #expect(tlsError(error)?.code == .certificateVerification, "\(String(describing: error))")
    }

    @Test("A host name the certificate does not cover fails with hostnameMismatch")
    func wrongHost() async {
        let error = await failure(of: url("127.0.0.1"), with: client(trusting: .pem(server.caPEM)))
        #expect(tlsError(error)?.code == .hostnameMismatch, "\(String(describing: error))")
    }

    @Test("Connecting by name to a server whose certificate names another host fails with hostnameMismatch")
    func wrongNameByDNS() async {
        let request = HTTPRequest(
            method: .get, baseEndpoint: "https://localhost:\(server.otherNamePort)", path: "/hello.txt")
        let error = await failure(of: request, with: client(trusting: .pem(server.caPEM)))
        #expect(tlsError(error)?.code == .hostnameMismatch, "\(String(describing: error))")
    }

    @Test("Pins apply to the host however it is written: another case or a trailing dot, in the URL or the pin's key")
    func pinsIgnoreCaseAndTrailingDot() async throws {
        let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()
        let byUpperCaseURL = await failure(
            of: url("LOCALHOST"), with: client(trusting: .pem(server.caPEM), pins: [wrongPin]))
        #expect(tlsError(byUpperCaseURL)?.code == .pinMismatch, "\(String(describing: byUpperCaseURL))")
        let keyWithDot = makeClient {
            $0.tls.trustRoots = .pem(self.server.caPEM)
            $0.tls.pinnedPublicKeys = ["LocalHost.": [wrongPin]]
        }
        let byKeyWithDot = await failure(of: url(), with: keyWithDot)
        #expect(tlsError(byKeyWithDot)?.code == .pinMismatch, "\(String(describing: byKeyWithDot))")
        // A URL host with a trailing dot is looked up without it (this machine cannot resolve "localhost.").
        #expect(TLSConfiguration.canonicalHostName("API.Example.COM.") == "api.example.com")
        let rightPin = client(trusting: .pem(server.caPEM), pins: [server.serverPin])
        #expect(try await rightPin.send(url("LOCALHOST")).statusCode == 200)
    }

    @Test("A close-delimited body over TLS that ends without close_notify fails as truncated")
    func truncationWithoutCloseNotify() async throws {
        let truncating = try await PythonTLSServerProcess.truncating(
            certificate: server.directory.appendingPathComponent("server.pem"),
            key: server.directory.appendingPathComponent("server.key"))
        defer { truncating.stop() }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(truncating.port)", path: "/")

        let error = await failure(of: request, with: client(trusting: .pem(server.caPEM)))

        guard case .networkError(let failure) = error else {
            Issue.record("a truncated body was accepted: \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost, "\(failure)")
    }

    @Test("Over https every phase is present and ordered, and the reused connection has no lookup, connect or TLS")
    func timingsOverHTTPS() async throws {
        let client = client(trusting: .pem(server.caPEM))

        let first = try #require(try await client.send(url()).timings)
        let second = try #require(try await client.send(url()).timings)

        #expect(first.phases.map(\.name) == ["dns", "connect", "tls", "send", "wait", "receive"], "\(first)")
        #expect(first.reusedConnection == false)
        expectOrdered(first)
        #expect(second.reusedConnection == true)
        #expect(second.phases.map(\.name) == ["send", "wait", "receive"], "\(second)")
        expectOrdered(second)
    }

    @Test("A server slow to do its TLS handshake shows in the TLS phase, not in connect")
    func slowHandshake() async throws {
        let delay = Duration.milliseconds(300)
        let slow = try await PythonTLSServerProcess.slowHandshake(
            certificate: server.directory.appendingPathComponent("server.pem"),
            key: server.directory.appendingPathComponent("server.key"), delay: delay)
        defer { slow.stop() }
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(slow.port)", path: "/")

        let response = try await client(trusting: .pem(server.caPEM)).send(request)

        #expect(response.body == Data("ok".utf8))
        let timings = try #require(response.timings)
        expectOrdered(timings)
        #expect(try #require(timings.tlsHandshake).duration >= delay, "\(timings)")
        // Connecting on loopback takes nowhere near the handshake's wait (scaled for sanitizer runs).
        #expect(try #require(timings.connect).duration < TestTimeScale.scaled(delay), "\(timings)")
    }

    @Test("A pin that matches no certificate of the chain fails with pinMismatch")
    func pinMismatch() async {
        let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()
        let error = await failure(of: url(), with: client(trusting: .pem(server.caPEM), pins: [wrongPin]))
        #expect(tlsError(error)?.code == .pinMismatch, "\(String(describing: error))")
    }

    @Test("A pin of the server's public key succeeds")
    func pinMatch() async throws {
        let client = client(trusting: .pem(server.caPEM), pins: ["sha256/" + server.serverPin])
        #expect(try await client.send(url()).statusCode == 200)
    }

    @Test("Unreadable trust roots fail HTTPS calls with a configuration error")
    func badRoots() async {
        let error = await failure(of: url(), with: client(trusting: .pem(Data("not a certificate".utf8))))
        #expect(tlsError(error)?.code == .configuration)
    }
}

@Suite(
    "Both transports report an untrusted certificate the same way",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class TLSFailureMappingTests {
    private let server: NginxTLSServer

    init() async throws {
        server = try await NginxTLSServer.start()
    }

    deinit {
        server.stop()
    }

    @Test(
        "a certificate from an unknown CA fails with secureConnectionFailed on URLSession and on native",
        arguments: ["urlSession", "native"])
    func untrustedCertificate(transport: String) async {
        let client: any HTTPClient =
            transport == "native" ? NativeHTTPClient() : URLSessionHTTPClient()
        let request = HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(server.port)", path: "/hello.txt")

        let error = await failure(of: request, with: client)

        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .secureConnectionFailed, "\(failure)")
    }
}
