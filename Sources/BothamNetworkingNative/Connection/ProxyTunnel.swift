import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The handshake that turns a TCP connection to a proxy into a byte tunnel to the origin: an HTTP `CONNECT`
/// (RFC 9110 §9.3.6) or SOCKS5 (RFC 1928, with RFC 1929 username/password when the proxy has credentials).
///
/// A pure state machine: ``start()`` gives the first bytes to send, ``feed(_:)`` takes what the proxy answered and
/// says what to do next. The connection sends its bytes before TLS, so the TLS handshake (SNI, certificate checks,
/// pins) runs with the origin through the tunnel, never with the proxy.
struct ProxyTunnel {
    /// What the connection does next.
    enum Step: Equatable {
        /// Send these bytes to the proxy, then wait for its answer.
        case send(Data)
        /// Wait for more bytes.
        case needMore
        /// The tunnel is open: from now on bytes go to the origin.
        case established
        /// The proxy refused or failed; close the connection.
        case failed(NativeProxyError)
    }

    private enum Stage {
        case connectResponse
        case socksMethod
        case socksAuthentication
        case socksReply
        case open
    }

    /// The largest `CONNECT` answer head read (16 KiB).
    static let maxResponseHead = 16 * 1024

    private let proxy: ProxyServer
    /// The host (a name, or an IP literal) and port the proxy is asked to reach.
    private let targetHost: String
    private let targetPort: Int
    private var stage: Stage
    private var buffer: [UInt8] = []

    /// A tunnel through `proxy` to `targetHost:targetPort`. For an HTTP proxy `targetHost` is the origin's name;
    /// for SOCKS5 it is the name (`socks5h`) or an address the client resolved (`socks5`).
    init(proxy: ProxyServer, targetHost: String, targetPort: Int) {
        self.proxy = proxy
        self.targetHost = targetHost
        self.targetPort = targetPort
        stage = proxy.kind == .http ? .connectResponse : .socksMethod
    }

    /// The first bytes to send: the `CONNECT` request, or the SOCKS5 greeting.
    func start() -> Data {
        switch proxy.kind {
        case .http:
            let authority = Self.authority(targetHost, targetPort)
            var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
            if let credentials = proxy.credentials {
                head += "Proxy-Authorization: \(credentials.authorizationHeaderValue)\r\n"
            }
            return Data((head + "\r\n").utf8)
        case .socks5, .socks5h:
            // Version 5; "no authentication" (0), and "username/password" (2) when there are credentials.
            return proxy.credentials == nil ? Data([5, 1, 0]) : Data([5, 2, 0, 2])
        }
    }

    /// Takes bytes the proxy sent and says what to do next.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Step {
        buffer.append(contentsOf: bytes)
        switch stage {
        case .connectResponse: return readConnectResponse()
        case .socksMethod: return readMethod()
        case .socksAuthentication: return readAuthentication()
        case .socksReply: return readReply()
        case .open: return fail(.malformedReply, "the proxy sent bytes after the tunnel opened")
        }
    }

    // MARK: HTTP CONNECT

    private mutating func readConnectResponse() -> Step {
        guard let end = Self.headEnd(buffer) else {
            if buffer.count > Self.maxResponseHead {
                return fail(.malformedReply, "the answer to CONNECT is longer than \(Self.maxResponseHead) bytes")
            }
            return .needMore
        }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
            (100...999).contains(status)
        else {
            return fail(.malformedReply, "the answer to CONNECT is not HTTP/1.x")
        }
        if (200...299).contains(status) {
            // A proxy speaks no further until the client does: any byte after the head is not the origin's.
            guard buffer.count == end + 4 else {
                return fail(.malformedReply, "the proxy sent bytes after its answer to CONNECT")
            }
            stage = .open
            buffer = []
            return .established
        }
        // The answer to CONNECT is always the proxy's own, so a 401 is about the proxy's credentials too (tinyproxy
        // 1.11 answers a wrong password with 401 and `WWW-Authenticate`).
        let challengeField = status == 401 ? "www-authenticate" : "proxy-authenticate"
        let challenges = lines.dropFirst().flatMap { line -> [AuthenticationChallenge] in
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == challengeField
            else { return [] }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return AuthenticationChallenge.parse(value).map { challenge in
                var challenge = challenge
                challenge.isProxy = true
                challenge.origin = proxy.authority
                return challenge
            }
        }
        let reason = statusParts.count > 2 ? " \(statusParts[2])" : ""
        if status == 407 || status == 401 {
            let what = proxy.credentials == nil ? "no credentials were configured" : "the credentials were rejected"
            return .failed(
                NativeProxyError(
                    code: .authenticationRequired, proxy: proxy.description, statusCode: status,
                    challenges: challenges,
                    reason: "CONNECT \(Self.authority(targetHost, targetPort)) answered \(status)\(reason): \(what)"))
        }
        return .failed(
            NativeProxyError(
                code: .refused, proxy: proxy.description, statusCode: status,
                reason: "CONNECT \(Self.authority(targetHost, targetPort)) answered \(status)\(reason)"))
    }

    // MARK: SOCKS5

    private mutating func readMethod() -> Step {
        guard buffer.count >= 2 else { return .needMore }
        guard buffer.count == 2, buffer[0] == 5 else { return fail(.malformedReply, "not a SOCKS5 method reply") }
        let method = buffer[1]
        buffer = []
        switch method {
        case 0:
            stage = .socksReply
            return .send(connectRequest())
        case 2:
            guard let credentials = proxy.credentials else {
                return fail(.malformedReply, "the proxy chose username/password, which was not offered")
            }
            let user = Array(credentials.username.utf8)
            let password = Array(credentials.password.utf8)
            guard (1...255).contains(user.count), password.count <= 255 else {
                return fail(.authenticationRequired, "a SOCKS5 username and password are 1 to 255 bytes each")
            }
            stage = .socksAuthentication
            // RFC 1929: version 1, the username and the password, each after its length.
            return .send(Data([1, UInt8(user.count)] + user + [UInt8(password.count)] + password))
        case 0xFF:
            let what =
                proxy.credentials == nil
                ? "it accepts no method offered (it wants a username and password?)"
                : "it accepts neither no authentication nor username/password"
            return fail(.authenticationRequired, "the SOCKS5 proxy refused: \(what)")
        default:
            return fail(.malformedReply, "the proxy chose SOCKS5 method \(method), which was not offered")
        }
    }

    private mutating func readAuthentication() -> Step {
        guard buffer.count >= 2 else { return .needMore }
        guard buffer.count == 2, buffer[0] == 1 else {
            return fail(.malformedReply, "not an RFC 1929 authentication reply")
        }
        guard buffer[1] == 0 else {
            return fail(.authenticationRequired, "the SOCKS5 proxy rejected the username and password")
        }
        buffer = []
        stage = .socksReply
        return .send(connectRequest())
    }

    /// `CONNECT` (command 1) to the target: an IPv4 or IPv6 address, or a domain name the proxy resolves.
    private func connectRequest() -> Data {
        var request: [UInt8] = [5, 1, 0]
        if let bytes = Self.ipBytes(targetHost) {
            request.append(bytes.count == 4 ? 1 : 4)
            request.append(contentsOf: bytes)
        } else {
            let name = Array(targetHost.utf8.prefix(255))
            request.append(3)
            request.append(UInt8(name.count))
            request.append(contentsOf: name)
        }
        request.append(UInt8(truncatingIfNeeded: targetPort >> 8))
        request.append(UInt8(truncatingIfNeeded: targetPort))
        return Data(request)
    }

    private mutating func readReply() -> Step {
        guard buffer.count >= 5 else { return .needMore }
        guard buffer[0] == 5, buffer[2] == 0 else { return fail(.malformedReply, "not a SOCKS5 reply") }
        let addressLength: Int
        switch buffer[3] {
        case 1: addressLength = 4
        case 4: addressLength = 16
        case 3: addressLength = 1 + Int(buffer[4])
        default: return fail(.malformedReply, "a SOCKS5 reply with address type \(buffer[3])")
        }
        let length = 4 + addressLength + 2
        guard buffer.count >= length else { return .needMore }
        guard buffer.count == length else { return fail(.malformedReply, "the proxy sent bytes after its reply") }
        let reply = buffer[1]
        guard reply == 0 else {
            return .failed(
                NativeProxyError(
                    code: .refused, proxy: proxy.description,
                    reason: "SOCKS5 CONNECT \(Self.authority(targetHost, targetPort)): \(Self.replyText(reply))"))
        }
        stage = .open
        buffer = []
        return .established
    }

    // MARK: Helpers

    private func fail(_ code: NativeProxyError.Code, _ reason: String) -> Step {
        .failed(NativeProxyError(code: code, proxy: proxy.description, reason: reason))
    }

    /// The RFC 1928 §6 meaning of a reply code.
    static func replyText(_ reply: UInt8) -> String {
        switch reply {
        case 1: return "general SOCKS server failure"
        case 2: return "connection not allowed by ruleset"
        case 3: return "network unreachable"
        case 4: return "host unreachable"
        case 5: return "connection refused"
        case 6: return "TTL expired"
        case 7: return "command not supported"
        case 8: return "address type not supported"
        default: return "reply code \(reply)"
        }
    }

    /// `host:port`, with brackets around an IPv6 literal.
    static func authority(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Where the blank line ending a head starts, if it has arrived.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The network-order bytes of an IPv4 or IPv6 literal.
    private static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
