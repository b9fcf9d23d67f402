import Testing

@testable import BothamWebSocketWire

/// The opening handshake: SHA-1 (FIPS 180 vectors), the key and accept values (RFC 6455 §1.3, §4.2.2), the
/// client's checks of the response (§4.1) and the server's of the request.
@Suite("WebSocket handshake: keys, accept values and SHA-1", .timeLimit(.minutes(1)))
struct WebSocketHandshakeTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("SHA-1 gives the FIPS 180 digests (empty, abc, 448 bits, a million a's) and crosses block edges")
    func sha1Vectors() {
        #expect(Self.hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(Self.hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Self.hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // 55, 56 and 64 bytes: the padding fits the block, spills into the next, or starts one.
        #expect(Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 55))) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 56))) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        #expect(Self.hex(SHA1.hash([UInt8](repeating: 0x61, count: 64))) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    @Test("the accept value of RFC 6455's example key is the RFC's")
    func rfcAcceptExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a key is the base64 of its 16 bytes (RFC 6455's example nonce) and decodes back")
    func makeKey() {
        let nonce = Array("the sample nonce".utf8)
        #expect(WebSocketHandshake.makeKey(random: nonce) == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ==") == nonce)
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ=") == nil)
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZR==") == nil)  // non-zero bits in the padding
        #expect(Base64.decode("dGhl*HNhbXBsZSBub25jZQ==") == nil)
        for count in 0..<8 {
            let bytes = (0..<count).map { UInt8($0 * 37 & 0xFF) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
    }

    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let good: [(String, String)] = [
        ("upgrade", "WebSocket"), ("Connection", "keep-alive, Upgrade"),
        ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
    ]

    static func validate(
        status: Int = 101, _ headers: [(String, String)], protocols: [String] = ["chat", "superchat"],
        deflate: PerMessageDeflate.Offer? = .init()
    ) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        try WebSocketHandshake.validateResponse(
            status: status, headers: headers, key: key, offeredProtocols: protocols, offeredDeflate: deflate)
    }

    @Test("a valid 101 response is accepted with its subprotocol and deflate parameters")
    func validResponse() throws {
        #expect(try Self.validate(Self.good) == WebSocketNegotiation())
        let negotiated = try Self.validate(
            Self.good + [
                ("Sec-WebSocket-Protocol", "superchat"),
                (
                    "Sec-WebSocket-Extensions",
                    "permessage-deflate; server_no_context_takeover; client_max_window_bits=\"10\""
                ),
            ])
        #expect(negotiated.subprotocol == "superchat")
        #expect(
            negotiated.deflate
                == PerMessageDeflate.Parameters(clientMaxWindowBits: 10, serverNoContextTakeover: true))
    }

    /// A response the client must refuse, and a word its reason must contain.
    struct BadResponse: Sendable, CustomTestStringConvertible {
        var name: String
        var status = 101
        var headers: [(String, String)]
        var names: String
        var deflate: PerMessageDeflate.Offer? = .init()
        var testDescription: String { name }
    }

    static let badResponses: [BadResponse] = [
        BadResponse(name: "status 200", status: 200, headers: good, names: "101"),
        BadResponse(name: "no Upgrade", headers: Array(good.dropFirst()), names: "Upgrade"),
        BadResponse(name: "Upgrade: h2c", headers: [("Upgrade", "h2c")] + good.dropFirst(), names: "Upgrade"),
        BadResponse(name: "no Connection", headers: [good[0], good[2]], names: "Connection"),
        BadResponse(
            name: "Connection: close", headers: [good[0], ("Connection", "close"), good[2]], names: "Connection"),
        BadResponse(name: "no accept", headers: Array(good.prefix(2)), names: "Sec-WebSocket-Accept"),
        BadResponse(
            name: "wrong accept", headers: Array(good.prefix(2)) + [("Sec-WebSocket-Accept", "AAAA")],
            names: "Sec-WebSocket-Accept"),
        BadResponse(
            name: "a subprotocol not offered", headers: good + [("Sec-WebSocket-Protocol", "mqtt")],
            names: "Sec-WebSocket-Protocol"),
        BadResponse(
            name: "two subprotocols", headers: good + [("Sec-WebSocket-Protocol", "chat, superchat")],
            names: "Sec-WebSocket-Protocol"),
        BadResponse(
            name: "an extension not offered", headers: good + [("Sec-WebSocket-Extensions", "x-webkit-deflate-frame")],
            names: "Sec-WebSocket-Extensions"),
        BadResponse(
            name: "deflate when not offered", headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate")],
            names: "Sec-WebSocket-Extensions", deflate: nil),
        BadResponse(
            name: "deflate twice",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate, permessage-deflate")],
            names: "Sec-WebSocket-Extensions"),
        BadResponse(
            name: "an unknown deflate parameter",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; x=1")], names: "Sec-WebSocket-Extensions"
        ),
        BadResponse(
            name: "window bits 16",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=16")],
            names: "Sec-WebSocket-Extensions"),
        BadResponse(
            name: "window bits with a leading zero",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=09")],
            names: "Sec-WebSocket-Extensions"),
        BadResponse(
            name: "client_max_window_bits not offered",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits=10")],
            names: "client_max_window_bits", deflate: .init(offersClientMaxWindowBits: false)),
        BadResponse(
            name: "client_max_window_bits without a value",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")],
            names: "client_max_window_bits"),
        BadResponse(
            name: "a repeated parameter",
            headers: good + [
                (
                    "Sec-WebSocket-Extensions",
                    "permessage-deflate; server_no_context_takeover; server_no_context_takeover"
                )
            ], names: "Sec-WebSocket-Extensions"),
        BadResponse(
            name: "server_max_window_bits above the offer",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate; server_max_window_bits=12")],
            names: "server_max_window_bits", deflate: .init(serverMaxWindowBits: 10)),
        BadResponse(
            name: "a dropped server_no_context_takeover",
            headers: good + [("Sec-WebSocket-Extensions", "permessage-deflate")], names: "server_no_context_takeover",
            deflate: .init(serverNoContextTakeover: true)),
    ]

    @Test(
        "a response that breaks RFC 6455 §4.1 or RFC 7692 §7.1 is refused, naming the header", arguments: badResponses)
    func badResponse(_ response: BadResponse) {
        do {
            _ = try Self.validate(status: response.status, response.headers, deflate: response.deflate)
            Issue.record("accepted")
        } catch {
            #expect(error.reason.contains(response.names), "\(error.reason)")
        }
    }

    @Test("an extended CONNECT response (RFC 8441) needs a 2xx status but no upgrade headers")
    func extendedConnect() throws {
        let negotiation = try WebSocketHandshake.validateExtendedConnectResponse(
            status: 200, headers: [("sec-websocket-protocol", "chat")], offeredProtocols: ["chat"],
            offeredDeflate: nil)
        #expect(negotiation.subprotocol == "chat")
        #expect(throws: WebSocketHandshakeError.self) {
            try WebSocketHandshake.validateExtendedConnectResponse(
                status: 101, headers: [], offeredProtocols: [], offeredDeflate: nil)
        }
    }

    @Test("the request headers a client sends are accepted by the server side, and its answer by the client side")
    func clientAndServerAgree() throws {
        let key = WebSocketHandshake.makeKey(random: Array(0..<16))
        let offer = PerMessageDeflate.Offer(clientMaxWindowBits: nil, serverNoContextTakeover: true)
        let request = WebSocketHandshake.requestHeaders(key: key, protocols: ["v2", "v1"], deflate: offer)
        let acceptance = try WebSocketHandshake.acceptRequest(
            method: "GET", headers: request, supportedProtocols: ["v1", "v2"],
            deflate: .init(clientMaxWindowBits: 11))
        #expect(acceptance.negotiation.subprotocol == "v2")
        let negotiation = try WebSocketHandshake.validateResponse(
            status: 101, headers: acceptance.headers, key: key, offeredProtocols: ["v2", "v1"], offeredDeflate: offer)
        #expect(negotiation == acceptance.negotiation)
        #expect(negotiation.deflate == .init(clientMaxWindowBits: 11, serverNoContextTakeover: true))
    }

    @Test("our server's answer to every offer shape is accepted by our client with the same parameters")
    func everyOfferRoundTrips() throws {
        let offers: [PerMessageDeflate.Offer] = [
            .init(), .init(offersClientMaxWindowBits: false), .init(clientMaxWindowBits: 9),
            .init(serverMaxWindowBits: 15), .init(serverMaxWindowBits: 8, serverNoContextTakeover: true),
            .init(clientMaxWindowBits: 12, serverMaxWindowBits: 10, clientNoContextTakeover: true),
        ]
        let policies: [PerMessageDeflate.ServerPolicy] = [
            .init(), .init(serverNoContextTakeover: true, clientNoContextTakeover: true),
            .init(serverMaxWindowBits: 11, clientMaxWindowBits: 10),
        ]
        for offer in offers {
            for policy in policies {
                let request = WebSocketHandshake.requestHeaders(key: Self.key, protocols: [], deflate: offer)
                let acceptance = try WebSocketHandshake.acceptRequest(
                    method: "GET", headers: request, supportedProtocols: [], deflate: policy)
                let negotiation = try WebSocketHandshake.validateResponse(
                    status: 101, headers: acceptance.headers, key: Self.key, offeredProtocols: [],
                    offeredDeflate: offer)
                #expect(negotiation == acceptance.negotiation, "\(offer) \(policy)")
            }
        }
    }

    @Test("the server side refuses a request without GET, Upgrade, Connection, version 13 or a 16-byte key")
    func serverRefusesBadRequests() {
        let good = WebSocketHandshake.requestHeaders(key: Self.key, protocols: [], deflate: nil)
        func refuses(_ method: String, _ headers: [(String, String)], _ names: String) {
            do {
                _ = try WebSocketHandshake.acceptRequest(
                    method: method, headers: headers, supportedProtocols: [], deflate: nil)
                Issue.record("accepted \(headers)")
            } catch {
                #expect(error.reason.contains(names), "\(error.reason)")
            }
        }
        refuses("POST", good, "GET")
        refuses("GET", good.filter { $0.0 != "Upgrade" }, "Upgrade")
        refuses("GET", good.filter { $0.0 != "Connection" }, "Connection")
        refuses("GET", good.filter { $0.0 != "Sec-WebSocket-Version" } + [("Sec-WebSocket-Version", "8")], "Version")
        refuses("GET", good.filter { $0.0 != "Sec-WebSocket-Key" } + [("Sec-WebSocket-Key", "c2hvcnQ=")], "Key")
        #expect(throws: Never.self) {
            try WebSocketHandshake.acceptRequest(
                method: "CONNECT", headers: [("sec-websocket-version", "13")], supportedProtocols: [], deflate: nil,
                extendedConnect: true)
        }
    }

    @Test("the server accepts the first well-formed deflate offer and narrows it to its policy")
    func serverDeflateNegotiation() {
        let parameters = PerMessageDeflate.accept(
            offers: ["permessage-deflate; x=1, permessage-deflate; client_max_window_bits; server_max_window_bits=10"],
            policy: .init(serverNoContextTakeover: true, serverMaxWindowBits: 9, clientMaxWindowBits: 12))
        #expect(
            parameters
                == .init(serverMaxWindowBits: 9, clientMaxWindowBits: 12, serverNoContextTakeover: true))
        #expect(
            parameters?.headerValue
                == "permessage-deflate; server_no_context_takeover; server_max_window_bits=9; client_max_window_bits=12"
        )
        #expect(PerMessageDeflate.accept(offers: ["x-webkit-deflate-frame"]) == nil)
        // Without client_max_window_bits in the offer, the server may not limit the client's window.
        #expect(
            PerMessageDeflate.accept(offers: ["permessage-deflate"], policy: .init(clientMaxWindowBits: 9)) == .init())
    }

    @Test("the offer's header value lists what it offers")
    func offerHeaderValue() {
        #expect(PerMessageDeflate.Offer().headerValue == "permessage-deflate; client_max_window_bits")
        #expect(
            PerMessageDeflate.Offer(
                clientMaxWindowBits: 10, serverMaxWindowBits: 12, clientNoContextTakeover: true,
                serverNoContextTakeover: true
            ).headerValue
                == "permessage-deflate; client_no_context_takeover; server_no_context_takeover; server_max_window_bits=12; client_max_window_bits=10"
        )
    }
}
