import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("The CONNECT and SOCKS5 handshakes byte by byte (pure, no network)", .timeLimit(.minutes(1)))
struct ProxyTunnelTests {
    private func feed(_ tunnel: inout ProxyTunnel, _ bytes: [UInt8]) -> ProxyTunnel.Step {
        bytes.withUnsafeBytes { tunnel.feed($0) }
    }

    private func feed(_ tunnel: inout ProxyTunnel, _ text: String) -> ProxyTunnel.Step {
        feed(&tunnel, Array(text.utf8))
    }

    private func proxyError(_ step: ProxyTunnel.Step) -> NativeProxyError? {
        if case .failed(let error) = step { return error }
        return nil
    }

    @Test("CONNECT names the origin's authority, carries Basic credentials only when configured, opens on a 2xx")
    func connectRequest() throws {
        var open = ProxyTunnel(proxy: try ProxyServer(url: "http://p:1"), targetHost: "::1", targetPort: 8443)
        #expect(
            String(decoding: open.start(), as: UTF8.self) == "CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n")
        // The answer may arrive in pieces.
        #expect(feed(&open, "HTTP/1.0 200 Connection ") == .needMore)
        #expect(feed(&open, "established\r\nProxy-agent: test\r\n\r\n") == .established)

        let tunnel = ProxyTunnel(
            proxy: try ProxyServer(url: "http://u:pw@p:1"), targetHost: "api.test", targetPort: 443)
        #expect(
            String(decoding: tunnel.start(), as: UTF8.self)
                == "CONNECT api.test:443 HTTP/1.1\r\nHost: api.test:443\r\nProxy-Authorization: Basic dTpwdw==\r\n\r\n")
    }

    @Test("A 407 (or 401) to CONNECT is authenticationRequired with the challenges; another status is refused")
    func connectRefusals() throws {
        var tunnel = ProxyTunnel(
            proxy: try ProxyServer(url: "http://u:pw@p:1"), targetHost: "api.test", targetPort: 443)
        let step = feed(
            &tunnel,
            "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"corp\"\r\n"
                + "proxy-authenticate: Negotiate\r\nContent-Length: 0\r\n\r\n")
        let error = try #require(proxyError(step))
        #expect(error.code == .authenticationRequired)
        #expect(error.statusCode == 407)
        #expect(error.challenges.map(\.scheme) == ["Basic", "Negotiate"])
        #expect(error.challenges.first?.realm == "corp")
        #expect(error.challenges.allSatisfy { $0.isProxy && $0.origin == "p:1" })
        #expect(error.proxy == "http://u:<redacted>@p:1")
        #expect(!error.description.contains("pw"))

        var unauthorized = ProxyTunnel(
            proxy: try ProxyServer(url: "http://u:pw@p:1"), targetHost: "a.test", targetPort: 1)
        let wrongPassword = try #require(
            proxyError(feed(&unauthorized, "HTTP/1.0 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"t\"\r\n\r\n")))
        #expect(wrongPassword.code == .authenticationRequired)
        #expect(wrongPassword.challenges.map(\.scheme) == ["Basic"] && wrongPassword.challenges.first?.realm == "t")
        #expect(wrongPassword.challenges.first?.isProxy == true, "a 401 to CONNECT is the proxy's")

        var forbidden = ProxyTunnel(proxy: try ProxyServer(url: "http://p:1"), targetHost: "a.test", targetPort: 443)
        let refused = try #require(proxyError(feed(&forbidden, "HTTP/1.1 403 Forbidden\r\n\r\n")))
        #expect(refused.code == .refused && refused.statusCode == 403)

        var garbage = ProxyTunnel(proxy: try ProxyServer(url: "http://p:1"), targetHost: "a.test", targetPort: 443)
        #expect(proxyError(feed(&garbage, "SSH-2.0-OpenSSH\r\n\r\n"))?.code == .malformedReply)
        var early = ProxyTunnel(proxy: try ProxyServer(url: "http://p:1"), targetHost: "a.test", targetPort: 443)
        #expect(proxyError(feed(&early, "HTTP/1.1 200 OK\r\n\r\nextra"))?.code == .malformedReply)
        var endless = ProxyTunnel(proxy: try ProxyServer(url: "http://p:1"), targetHost: "a.test", targetPort: 443)
        _ = feed(&endless, "HTTP/1.1 200 OK\r\n")
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: ProxyTunnel.maxResponseHead + 1)
        #expect(proxyError(feed(&endless, long))?.code == .malformedReply)
    }

    @Test("SOCKS5 without credentials: greeting, then CONNECT by name (socks5h) or by address, then the reply")
    func socksWithoutCredentials() throws {
        var byName = ProxyTunnel(proxy: try ProxyServer(url: "socks5h://p:1"), targetHost: "api.test", targetPort: 443)
        #expect(byName.start() == Data([5, 1, 0]))
        #expect(feed(&byName, [5, 0]) == .send(Data([5, 1, 0, 3, 8] + Array("api.test".utf8) + [1, 187])))
        #expect(feed(&byName, [5, 0, 0, 1, 127, 0]) == .needMore)
        #expect(feed(&byName, [0, 1, 0x1F, 0x90]) == .established)

        var byAddress = ProxyTunnel(proxy: try ProxyServer(url: "socks5://p:1"), targetHost: "::1", targetPort: 80)
        _ = byAddress.start()
        #expect(
            feed(&byAddress, [5, 0]) == .send(Data([5, 1, 0, 4] + [UInt8](repeating: 0, count: 15) + [1, 0, 80])))
        #expect(feed(&byAddress, [5, 0, 0, 3, 4] + Array("host".utf8) + [0, 80]) == .established)

        var refused = ProxyTunnel(proxy: try ProxyServer(url: "socks5h://p:1"), targetHost: "a.test", targetPort: 1)
        _ = feed(&refused, [5, 0])
        let error = try #require(proxyError(feed(&refused, [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])))
        #expect(error.code == .refused)
        #expect(error.reason.contains("connection refused"))

        var wantsAuthentication = ProxyTunnel(
            proxy: try ProxyServer(url: "socks5h://p:1"), targetHost: "a.test", targetPort: 1)
        #expect(proxyError(feed(&wantsAuthentication, [5, 0xFF]))?.code == .authenticationRequired)
    }

    @Test("SOCKS5 with credentials offers username/password and sends them by RFC 1929; a rejection is typed")
    func socksWithCredentials() throws {
        let proxy = try ProxyServer(url: "socks5h://botham:s3cret@p:1")
        var tunnel = ProxyTunnel(proxy: proxy, targetHost: "a.test", targetPort: 80)
        #expect(tunnel.start() == Data([5, 2, 0, 2]))
        #expect(feed(&tunnel, [5, 2]) == .send(Data([1, 6] + Array("botham".utf8) + [6] + Array("s3cret".utf8))))
        #expect(feed(&tunnel, [1, 0]) == .send(Data([5, 1, 0, 3, 6] + Array("a.test".utf8) + [0, 80])))
        #expect(feed(&tunnel, [5, 0, 0, 1, 127, 0, 0, 1, 0, 80]) == .established)

        var rejected = ProxyTunnel(proxy: proxy, targetHost: "a.test", targetPort: 80)
        _ = feed(&rejected, [5, 2])
        let error = try #require(proxyError(feed(&rejected, [1, 1])))
        #expect(error.code == .authenticationRequired)
        #expect(!error.description.contains("s3cret"))
    }
}
