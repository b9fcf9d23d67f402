import BothamHTTP2Wire
import BothamNetworking
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("Unix socket origins, addresses and HTTP/2 fields", .timeLimit(.minutes(1)))
struct UnixSocketOriginTests {
    @Test("An http+unix URL's origin is its decoded socket path, case kept, with the scheme's default port")
    func origin() throws {
        let url = try #require(URL(string: "http+unix://%2FVar%2Frun%2FDocker.sock/v1.43/containers/json?all=1"))

        let (origin, target) = try Origin.parse(url)

        #expect(origin.scheme == "http+unix")
        #expect(origin.unixSocketPath == "/Var/run/Docker.sock")
        #expect(origin.port == 80)
        #expect(!origin.isTLS)
        #expect(origin.hostHeader == "localhost")
        #expect(origin.wireScheme == "http")
        #expect(target == "/v1.43/containers/json?all=1")
    }

    @Test("An https+unix origin uses TLS, named localhost")
    func tlsOrigin() throws {
        let url = try #require(URL(string: "HTTPS+UNIX://%2Ftmp%2Fd.sock/"))

        let origin = try Origin(url: url)

        #expect(origin.isTLS)
        #expect(origin.port == 443)
        #expect(origin.wireScheme == "https")
        #expect(origin.tlsOrigin == Origin(scheme: "https", host: "localhost", port: 443))
        #expect(Origin(scheme: "https", host: "api.example.com", port: 443).tlsOrigin.host == "api.example.com")
    }

    @Test("Over HTTP/2 a socket origin's request has :scheme http and :authority localhost")
    func http2Fields() {
        let head = RequestHead(
            http1: Data(), method: "GET", origin: Origin(scheme: "http+unix", host: "/tmp/d.sock", port: 80),
            path: "/_ping", headers: [:], bodyLength: nil, chunked: false)

        let fields = HTTP2RequestFields.make(head, neverIndexed: { _ in false })

        let pairs = fields.map {
            "\(String(decoding: $0.name, as: UTF8.self)): \(String(decoding: $0.value, as: UTF8.self))"
        }
        #expect(pairs == [":method: GET", ":scheme: http", ":authority: localhost", ":path: /_ping"])
    }

    @Test("A socket path fits when it and its NUL fit in sun_path; empty, NUL-holding and longer paths do not")
    func pathLimits() {
        let capacity = UnixSocketAddress.pathCapacity
        let longest = "/" + String(repeating: "a", count: capacity - 2)

        #expect(UnixSocketAddress.problem(with: longest) == nil)
        #expect(UnixSocketAddress.socketAddress(path: longest) != nil)
        #expect(UnixSocketAddress.problem(with: longest + "a")?.contains("at most \(capacity - 1)") == true)
        #expect(UnixSocketAddress.socketAddress(path: longest + "a") == nil)
        #expect(UnixSocketAddress.problem(with: "") != nil)
        #expect(UnixSocketAddress.problem(with: "/tmp/a\u{0}b") != nil)
        #if os(Linux)
            #expect(capacity == 108)
        #endif
    }
}
