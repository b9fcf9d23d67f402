import Testing

@testable import BothamWebSocketWire

/// The opening handshake: the key and accept values (RFC 6455 §1.3, §4.2.2) and SHA-1 itself (FIPS 180 vectors).
@Suite("WebSocket handshake: keys, accept values and SHA-1", .timeLimit(.minutes(1)))
struct WebSocketHandshakeTests {
    @Test("the accept value of RFC 6455's example key is the RFC's")
    func rfcAcceptExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
