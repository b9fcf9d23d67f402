import Testing

@testable import BothamNetworkingNative

@Suite("NetworkAddress and the Happy Eyeballs address order")
struct NetworkAddressTests {
    @Test("IPv4 and IPv6 literals parse, print canonically and round-trip through a sockaddr")
    func literals() throws {
        let v4 = try #require(NetworkAddress(ip: "127.0.0.1", port: 8080))
        let v6 = try #require(NetworkAddress(ip: "0:0:0:0:0:0:0:1", port: 443))

        #expect(v4.family == .ipv4 && v4.description == "127.0.0.1:8080")
        #expect(v6.family == .ipv6 && v6.ip == "::1" && v6.description == "[::1]:443")
        #expect(NetworkAddress(v4.socketAddress) == v4)
        #expect(NetworkAddress(v6.socketAddress) == v6)
    }

    @Test("Names, bracketed literals and ports outside 0...65535 are not addresses")
    func notLiterals() {
        #expect(NetworkAddress(ip: "localhost", port: 80) == nil)
        #expect(NetworkAddress(ip: "[::1]", port: 80) == nil)
        #expect(NetworkAddress(ip: "127.0.0.1", port: 65536) == nil)
        #expect(NetworkAddress(ip: "127.0.0.1", port: -1) == nil)
    }

    @Test("Addresses are tried IPv6 first, then alternating families, each family in the resolver's order")
    func interleaving() {
        // Documentation addresses (RFC 5737, RFC 3849): only ordered here, never connected to.
        let addresses = ["192.0.2.1", "192.0.2.2", "192.0.2.3", "2001:db8::1", "2001:db8::2"].compactMap {
            NetworkAddress(ip: $0, port: 443)
        }

        let order = HappyEyeballsConnector.interleaved(addresses).map(\.ip)

        #expect(order == ["2001:db8::1", "192.0.2.1", "2001:db8::2", "192.0.2.2", "192.0.2.3"])
    }
}
