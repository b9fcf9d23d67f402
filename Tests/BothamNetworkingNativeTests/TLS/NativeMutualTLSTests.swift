import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "NativeHTTPClient mutual TLS: client identities against nginx and a server that refuses in TLS",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: NginxMutualTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class NativeMutualTLSTests {
    private let server: NginxMutualTLSServer

    init() async throws {
        server = try await NginxMutualTLSServer.start()
    }

    deinit {
        server.stop()
    }

    private func client(
        _ identity: TLSConfiguration.ClientIdentity?,
        _ change: @escaping (inout NativeHTTPClient.Configuration) -> Void = { _ in }
    ) -> NativeHTTPClient {
        let caPEM = server.caPEM
        return makeClient {
            $0.tls.trustRoots = .pem(caPEM)
            $0.tls.clientIdentity = identity
            change(&$0)
        }
    }

    private func request(_ host: String = "localhost", port: Int? = nil) -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "https://\(host):\(port ?? server.port)", path: "/hello.txt")
    }

    private func tlsError(_ error: APIClientError?) -> TLSError? {
        guard case .networkError(let failure) = error, failure.kind == .secureConnectionFailed else { return nil }
        return failure.underlying as? TLSError
    }

    @Test("A PEM identity with an intermediate is presented whole: nginx, trusting only the root, verifies it")
    func pemChain() async throws {
        let response = try await client(try server.alicePEM()).send(request())
        #expect(response.statusCode == 200)
        #expect(response.body == Data("hello, client".utf8))
        #expect(response.headers["X-Client-Verify"] == "SUCCESS")
        #expect(response.headers["X-Client-DN"] == "CN=alice")
    }

    @Test("An encrypted PEM key is decrypted with its password; a wrong one fails naming the file, not the password")
    func encryptedKey() async throws {
        let chain = server.path("alice-chain.pem")
        let key = server.path("alice-encrypted.key")
        let good = TLSConfiguration.ClientIdentity.pemFiles(
            certificateChain: chain, privateKey: key, password: NginxMutualTLSServer.keyPassword)
        let response = try await client(good).send(request())
        #expect(response.headers["X-Client-DN"] == "CN=alice")

        let wrong = TLSConfiguration.ClientIdentity.pemFiles(
            certificateChain: chain, privateKey: key, password: "not-the-password")
        let error = tlsError(await failure(of: request(), with: client(wrong)))
        #expect(error?.code == .configuration, "\(String(describing: error))")
        #expect(error?.reason.contains(key) == true, "\(String(describing: error))")
        #expect(error?.reason.contains("not-the-password") == false)
        let missing = TLSConfiguration.ClientIdentity.pemFiles(certificateChain: chain, privateKey: key)
        let noPassword = tlsError(await failure(of: request(), with: client(missing)))
        #expect(noPassword?.code == .configuration, "\(String(describing: noPassword))")
    }

    @Test("A PKCS#12 archive, as data or a file, presents its certificate; a wrong password is a configuration error")
    func pkcs12() async throws {
        let archive = try server.file("alice.p12")
        let fromData = try await client(.pkcs12(archive, password: NginxMutualTLSServer.archivePassword))
            .send(request())
        #expect(fromData.headers["X-Client-DN"] == "CN=alice")
        #expect(fromData.headers["X-Client-Verify"] == "SUCCESS")
        let path = server.path("alice.p12")
        let fromFile = try await client(.pkcs12File(path, password: NginxMutualTLSServer.archivePassword))
            .send(request())
        #expect(fromFile.headers["X-Client-DN"] == "CN=alice")

        let wrong = tlsError(
            await failure(of: request(), with: client(.pkcs12File(path, password: "wrong-password"))))
        #expect(wrong?.code == .configuration, "\(String(describing: wrong))")
        #expect(wrong?.reason.contains("wrong password") == true, "\(String(describing: wrong))")
        #expect(wrong?.reason.contains(path) == true, "\(String(describing: wrong))")
        #expect(wrong?.reason.contains("wrong-password") == false)
    }

    @Test("Unreadable files and a key that is not the certificate's fail with configuration errors naming the files")
    func badFiles() async throws {
        let missing = server.path("no-such.pem")
        let unreadable = tlsError(
            await failure(
                of: request(),
                with: client(.pemFiles(certificateChain: missing, privateKey: server.path("alice.key")))))
        #expect(unreadable?.code == .configuration)
        #expect(unreadable?.reason.contains(missing) == true, "\(String(describing: unreadable))")
        let mismatched = TLSConfiguration.ClientIdentity.pemFiles(
            certificateChain: server.path("alice.pem"), privateKey: server.path("bob.key"))
        let mismatch = tlsError(await failure(of: request(), with: client(mismatched)))
        #expect(mismatch?.code == .configuration)
        #expect(mismatch?.reason.contains("does not match") == true, "\(String(describing: mismatch))")
    }

    @Test("A renewed identity file is loaded by the next connection, and one that was missing is read once it appears")
    func renewedFiles() async throws {
        let chain = URL(fileURLWithPath: server.path("renewed.pem"))
        let key = URL(fileURLWithPath: server.path("renewed.key"))
        let identity = TLSConfiguration.ClientIdentity.pemFiles(certificateChain: chain.path, privateKey: key.path)

        let missing = tlsError(await failure(of: request(), with: client(identity)))
        try server.file("bob.pem").write(to: chain)
        try server.file("bob.key").write(to: key)
        let bob = try await client(identity).send(request())
        try server.file("mallory.pem").write(to: chain)
        try server.file("mallory.key").write(to: key)
        let renewed = try await client(identity).send(request())

        #expect(missing?.code == .configuration)
        #expect(bob.headers["X-Client-DN"] == "CN=bob")
        #expect(renewed.headers["X-Client-Verify"]?.hasPrefix("FAILED") == true, "mallory's now: \(renewed.headers)")
    }

    @Test("A certificate of the chain that does not parse is a configuration error, never silently left out")
    func brokenIntermediate() async throws {
        let text = String(decoding: try server.file("alice-chain.pem"), as: UTF8.self)
        let second = try #require(text.ranges(of: "-----BEGIN CERTIFICATE-----\n").dropFirst().first)
        let broken = text.replacingCharacters(
            in: second.upperBound..<text.index(second.upperBound, offsetBy: 8), with: "!!!!!!!!")
        let identity = TLSConfiguration.ClientIdentity.pem(
            certificateChain: Data(broken.utf8), privateKey: try server.file("alice.key"))

        let error = tlsError(await failure(of: request(), with: client(identity)))

        #expect(error?.code == .configuration, "\(String(describing: error))")
    }

    @Test("Over a Unix domain socket the identity is the one named for localhost, the name TLS uses there")
    func unixSocketIdentityKey() throws {
        let tls = TLSConfiguration(trustRoots: .pem(server.caPEM), clientIdentities: ["localhost": server.bob])
        let origin = try Origin(url: try #require(URL(string: "https+unix://%2Ftmp%2Fdaemon.sock/")))

        let context = try TLSContextCache.context(for: tls, alpn: .http1, origin: origin).get()

        #expect(context.presentsIdentity)
    }

    @Test("PEM files are read: bob's certificate, signed by the root directly, is presented")
    func pemFiles() async throws {
        let response = try await client(server.bob).send(request())
        #expect(response.headers["X-Client-DN"] == "CN=bob")
    }

    @Test("Without an identity, or with one from another CA, nginx finishes the handshake and answers 400")
    func nginxRefusesAtHTTPLevel() async throws {
        let none = try await client(nil).send(request())
        #expect(none.statusCode == 400)
        #expect(none.headers["X-Client-Verify"] == "NONE")
        let rogue = try await client(server.mallory).send(request())
        #expect(rogue.statusCode == 400)
        #expect(rogue.headers["X-Client-Verify"]?.hasPrefix("FAILED") == true, "\(rogue.headers)")
    }

    @Test("A per-host identity overrides the client's: one client presents bob to 127.0.0.1 and alice to localhost")
    func perHostIdentity() async throws {
        let bob = server.bob
        let client = client(try server.alicePEM()) { $0.tls.clientIdentities = ["127.0.0.1": bob] }
        let byName = try await client.send(request("localhost"))
        let byAddress = try await client.send(request("127.0.0.1"))
        let byNameAgain = try await client.send(request("localhost"))
        #expect(byName.headers["X-Client-DN"] == "CN=alice")
        #expect(byAddress.headers["X-Client-DN"] == "CN=bob")
        #expect(byNameAgain.headers["X-Client-DN"] == "CN=alice")
    }

    @Test("Over HTTP/2 (ALPN h2) the identity is presented too")
    func http2() async throws {
        let client = client(try server.alicePEM()) { $0.httpVersion = .http2Only }
        let response = try await client.send(request(port: server.http2Port))
        #expect(response.protocolVersion == .http2)
        #expect(response.headers["x-client-dn"] == "CN=alice")
    }

    @Test(
        "A server refusing the certificate in TLS fails with clientCertificateRejected (TLS 1.3: alert after the handshake)",
        arguments: [false, true])
    func refusedInTLS(maximumTLS12: Bool) async throws {
        let refusing = try await PythonTLSServerProcess.requiringClientCertificate(
            certificate: server.path("both.pem"), key: server.path("server.key"),
            clientCA: server.path("client-ca.pem"), maximumTLS12: maximumTLS12)
        defer { refusing.stop() }
        let url = request(port: refusing.port)
        let accepted = try await client(try server.alicePEM()).send(url)
        #expect(accepted.headers["X-Client-CN"] == "alice")

        let none = await failure(of: url, with: client(nil))
        #expect(tlsError(none)?.code == .clientCertificateRejected, "\(String(describing: none))")
        #expect(tlsError(none)?.reason.contains("none is configured") == true, "\(String(describing: none))")
        let rogue = await failure(of: url, with: client(server.mallory))
        #expect(tlsError(rogue)?.code == .clientCertificateRejected, "\(String(describing: rogue))")
        #expect(tlsError(rogue)?.reason.contains("rejected") == true, "\(String(describing: rogue))")
    }

    @Test("A wss:// WebSocket presents the identity; without one the server's refusal is clientCertificateRejected")
    func webSocket() async throws {
        let refusing = try await PythonTLSServerProcess.requiringClientCertificate(
            certificate: server.path("both.pem"), key: server.path("server.key"),
            clientCA: server.path("client-ca.pem"), maximumTLS12: false)
        defer { refusing.stop() }
        let endpoint = "https://localhost:\(refusing.port)"
        let alice = BothamAPIClient(baseEndpoint: endpoint, httpClient: client(try server.alicePEM()))
        let socket = try await alice.webSocket("/greeting")
        var received: [WebSocket.Message] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("hello alice")])
        #expect(socket.closeCode == .normalClosure)

        let anonymous = BothamAPIClient(baseEndpoint: endpoint, httpClient: client(nil))
        do {
            _ = try await anonymous.webSocket("/greeting")
            Issue.record("the WebSocket opened without a client certificate")
        } catch {
            #expect(tlsError(error)?.code == .clientCertificateRejected, "\(error)")
        }
    }
}
