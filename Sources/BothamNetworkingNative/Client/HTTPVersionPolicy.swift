extension NativeHTTPClient {
    /// Which versions of HTTP a ``NativeHTTPClient`` speaks: ``Configuration/httpVersion``.
    ///
    /// Over TLS the version is negotiated with ALPN in the handshake; in clear text HTTP/2 is spoken only with
    /// prior knowledge (``http2PriorKnowledge``: no `Upgrade: h2c` round trip, RFC 9113 §3.3). Over HTTP/2 every
    /// call to one origin shares one connection, each call on a stream of its own, up to the server's
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` at once (further calls wait for a stream to end), from the first call on:
    /// with ``preferHTTP2``, calls that start while the first connection awaits ALPN's answer wait for it. A plain `http` request
    /// through an HTTP proxy always goes as HTTP/1.1 (the proxy speaks it); `https` through a tunnel negotiates
    /// with the origin.
    ///
    /// Read `HTTPResponse.protocolVersion` to see which version a response came over.
    ///
    /// ```swift
    /// var configuration = NativeHTTPClient.Configuration()
    /// configuration.httpVersion = .preferHTTP2
    /// let client = NativeHTTPClient(configuration: configuration)
    /// ```
    public struct HTTPVersionPolicy: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: Hashable {
            case http1Only, preferHTTP2, http2Only, http2PriorKnowledge
        }

        private let kind: Kind

        /// HTTP/1.1 only: ALPN offers `http/1.1` alone (the default).
        public static let http1Only = HTTPVersionPolicy(kind: .http1Only)
        /// Over TLS, ALPN offers `h2` before `http/1.1` and the server picks; clear text stays HTTP/1.1.
        public static let preferHTTP2 = HTTPVersionPolicy(kind: .preferHTTP2)
        /// Over TLS, ALPN offers `h2` alone and a server that does not pick it fails the call with
        /// `secureConnectionFailed`; clear text stays HTTP/1.1.
        public static let http2Only = HTTPVersionPolicy(kind: .http2Only)
        /// HTTP/2 everywhere: over TLS as ``http2Only``, and in clear text with prior knowledge (the connection
        /// starts with HTTP/2's preface). Only for servers known to speak cleartext HTTP/2 (`h2c`), such as a
        /// service mesh's sidecar or an internal gRPC-style gateway.
        public static let http2PriorKnowledge = HTTPVersionPolicy(kind: .http2PriorKnowledge)

        /// Whether TLS connections offer `h2` in ALPN.
        var offersHTTP2: Bool { kind != .http1Only }
        /// Whether TLS connections offer `http/1.1` in ALPN.
        var offersHTTP1: Bool { kind == .http1Only || kind == .preferHTTP2 }
        /// Whether cleartext connections speak HTTP/2 from their first byte.
        var cleartextHTTP2: Bool { kind == .http2PriorKnowledge }

        /// `http1Only`, `preferHTTP2`, `http2Only` or `http2PriorKnowledge`.
        public var description: String {
            switch kind {
            case .http1Only: "http1Only"
            case .preferHTTP2: "preferHTTP2"
            case .http2Only: "http2Only"
            case .http2PriorKnowledge: "http2PriorKnowledge"
            }
        }
    }
}
