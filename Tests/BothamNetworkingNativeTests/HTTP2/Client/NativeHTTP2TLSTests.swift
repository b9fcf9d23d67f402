import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// HTTP/2 negotiated with ALPN against nginx over TLS (the test CA of ``NginxTLSServer``), and the policies that
/// choose what ALPN offers.
@Suite(
    "NativeHTTPClient negotiates HTTP/2 with ALPN (nginx over TLS)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(if: NginxTLSServer.isAvailable, "nginx or openssl missing: install with apt-get install -y nginx-light")
)
final class NativeHTTP2TLSTests {
    private let server: NginxTLSServer

    init() async throws {
        server = try await NginxTLSServer.start()
    }

    deinit {
        server.stop()
    }

    private func client(
        _ version: NativeHTTPClient.HTTPVersionPolicy, pins: [String]? = nil
    ) -> NativeHTTPClient {
        makeClient {
            $0.httpVersion = version
            $0.tls.trustRoots = .pem(self.server.caPEM)
            if let pins { $0.tls.pinnedPublicKeys = ["localhost": pins] }
        }
    }

    private func request(port: Int, _ path: String = "/hello.txt") -> HTTPRequest {
        HTTPRequest(method: .get, baseEndpoint: "https://localhost:\(port)", path: path)
    }

    private func tlsError(_ error: APIClientError?) -> TLSError? {
        guard case .networkError(let failure) = error, failure.kind == .secureConnectionFailed else { return nil }
        return failure.underlying as? TLSError
    }

    @Test("preferHTTP2 speaks HTTP/2 with a server that picks h2, and bodies arrive whole")
    func preferHTTP2NegotiatesH2() async throws {
        let client = client(.preferHTTP2)
        let small = try await client.send(request(port: server.http2Port))
        let big = try await client.send(request(port: server.http2Port, "/big.txt"))

        #expect(small.body == Data("hello over TLS".utf8))
        #expect(small.protocolVersion == .http2)
        #expect(small.timings?.tlsHandshake != nil)
        #expect(big.body.count == 320_000)
        #expect(big.timings?.reusedConnection == true)
        #expect(await client.openedConnectionCount() == 1)
    }

    /// Sends `count` requests at once from a client that has made none yet.
    private func concurrentFirstCalls(
        _ count: Int, with client: NativeHTTPClient, port: Int
    ) async -> [Result<HTTPResponse, APIClientError>] {
        let request = request(port: port)
        return await withTaskGroup(of: Result<HTTPResponse, APIClientError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(APIClientError) {
                        return .success(try await client.send(request))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<HTTPResponse, APIClientError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test(
        "concurrent first calls to an HTTP/2 origin share one connection (RFC 9113 §9.1)",
        arguments: [NativeHTTPClient.HTTPVersionPolicy.preferHTTP2, .http2Only])
    func coldStartOpensOneConnection(version: NativeHTTPClient.HTTPVersionPolicy) async throws {
        let client = client(version)
        let results = await concurrentFirstCalls(64, with: client, port: server.http2Port)

        for result in results {
            #expect((try? result.get().protocolVersion) == .http2, "\(result)")
        }
        #expect(server.http2PortConnections().count == 1, "nginx saw \(server.http2PortConnections())")
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test("concurrent first calls with preferHTTP2 to an HTTP/1.1 server all succeed over HTTP/1.1")
    func coldStartAgainstHTTP1() async throws {
        let client = client(.preferHTTP2)
        let results = await concurrentFirstCalls(8, with: client, port: server.port)

        for result in results {
            #expect((try? result.get().protocolVersion) == .http1_1, "\(result)")
        }
        #expect(await client.openedConnectionCount() > 1)
    }

    @Test("preferHTTP2 falls back to HTTP/1.1 with a server that offers only it")
    func preferHTTP2FallsBack() async throws {
        let response = try await client(.preferHTTP2).send(request(port: server.port))

        #expect(response.body == Data("hello over TLS".utf8))
        #expect(response.protocolVersion == .http1_1)
    }

    @Test("http1Only stays on HTTP/1.1 even with a server that speaks HTTP/2")
    func http1OnlyOffersNoH2() async throws {
        let response = try await client(.http1Only).send(request(port: server.http2Port))

        #expect(response.protocolVersion == .http1_1)
    }

    @Test("http2Only fails, before sending anything, with a server that does not pick h2")
    func http2OnlyRefusesHTTP1() async throws {
        let error = await failure(of: request(port: server.port), with: client(.http2Only))

        #expect(tlsError(error)?.code == .handshake, "\(String(describing: error))")
        #expect(tlsError(error)?.reason.contains("does not speak HTTP/2") == true, "\(String(describing: error))")
    }

    @Test("Pins still apply over HTTP/2")
    func pinsApplyOverHTTP2() async throws {
        let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()
        let error = await failure(of: request(port: server.http2Port), with: client(.preferHTTP2, pins: [wrongPin]))
        let pinned = try await client(.preferHTTP2, pins: [server.serverPin]).send(request(port: server.http2Port))

        #expect(tlsError(error)?.code == .pinMismatch, "\(String(describing: error))")
        #expect(pinned.protocolVersion == .http2)
    }

    @Test("HTTP/2 over TLS 1.2 with a CBC cipher suite fails with INADEQUATE_SECURITY (RFC 9113 §9.2.2)")
    func blockedCipherIsRefused() async throws {
        let error = await failure(of: request(port: server.http2WeakCipherPort), with: client(.preferHTTP2))
        let overHTTP1 = try await client(.http1Only).send(request(port: server.http2WeakCipherPort))

        #expect(tlsError(error)?.reason.contains("INADEQUATE_SECURITY") == true, "\(String(describing: error))")
        #expect(overHTTP1.statusCode == 200)
    }
}
