/// The application protocols a TLS connection offers in ALPN (RFC 7301), in order of preference, and which of them
/// the server must pick.
enum ALPNOffer: Hashable, Sendable {
    /// `http/1.1` alone.
    case http1
    /// `h2`, then `http/1.1`.
    case http2OrHTTP1
    /// `h2` alone: a server that picks nothing (or anything else) fails the handshake.
    case http2

    /// The protocol list as `SSL_CTX_set_alpn_protos` takes it: each name after its length octet.
    var wireFormat: [UInt8] {
        let h2: [UInt8] = [2] + Array("h2".utf8)
        let http1: [UInt8] = [8] + Array("http/1.1".utf8)
        switch self {
        case .http1: return http1
        case .http2OrHTTP1: return h2 + http1
        case .http2: return h2
        }
    }
}
