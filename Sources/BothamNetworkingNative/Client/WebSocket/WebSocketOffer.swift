import BothamNetworking
import BothamWebSocketWire

/// What a WebSocket handshake request offered (read from the fields it was sent with, so an interceptor's change
/// counts) and the options of the socket it opens: what the `101` is checked against.
struct WebSocketOffer: Sendable {
    /// The `Sec-WebSocket-Key` sent on this connection (the transport makes a fresh one for each, RFC 6455 §4.1).
    var key: String
    /// The subprotocols offered.
    var protocols: [String]
    /// The `permessage-deflate` offer, when one was made.
    var deflate: PerMessageDeflate.Offer?
    /// How the socket behaves once open.
    var options: WebSocket.Options

    /// The offer of `request`, a WebSocket handshake, sent with `key`.
    init(_ request: HTTPRequest, key: String, options: WebSocket.Options) {
        self.key = key
        protocols = request.headers.values(for: .secWebSocketProtocol).flatMap(HTTPFieldList.elements(of:))
        let extensions = request.headers.values(for: .secWebSocketExtensions).flatMap(HTTPFieldList.elements(of:))
        // The offer this client makes (`WebSocketOpening.deflateOffer`): the bare `client_max_window_bits`.
        let offersDeflate = extensions.contains { element in
            element.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                == PerMessageDeflate.extensionName
        }
        deflate = offersDeflate ? PerMessageDeflate.Offer() : nil
        self.options = options
    }

    /// What the server agreed to in `response`, checked as RFC 6455 §4.1 says for an HTTP/1.1 upgrade's `101`, or
    /// as RFC 8441 §5 says for the 2xx that opened an extended CONNECT (`extendedConnect`).
    func validate(_ response: ParsedResponse, extendedConnect: Bool = false) throws(WebSocketHandshakeError)
        -> WebSocketNegotiation
    {
        let headers = response.headers.fields.map { ($0.name.description, $0.value) }
        if extendedConnect {
            return try WebSocketHandshake.validateExtendedConnectResponse(
                status: response.statusCode, headers: headers, offeredProtocols: protocols, offeredDeflate: deflate)
        }
        return try WebSocketHandshake.validateResponse(
            status: response.statusCode, headers: headers, key: key, offeredProtocols: protocols,
            offeredDeflate: deflate)
    }

    /// The `:protocol` of an extended CONNECT that opens a WebSocket (RFC 8441 §4).
    static let extendedConnectProtocol = "websocket"
}

extension NativeHTTPClient {
    /// Makes `plan` a WebSocket handshake's when `request` asks for one.
    ///
    /// Which protocol carries the socket (RFC 8441 over HTTP/2, otherwise RFC 6455's HTTP/1.1 upgrade):
    /// - When the client may speak HTTP/2 to the origin — over TLS when ``Configuration/httpVersion`` offers `h2` in
    ///   ALPN, in clear text with ``HTTPVersionPolicy/http2PriorKnowledge`` (not through an HTTP proxy) — the
    ///   handshake takes the origin's ordinary route, as any call does: a stream of its pooled HTTP/2 connection,
    ///   or the connection it opens (the first call to a fresh TLS origin learns from ALPN). Once the server's first
    ///   SETTINGS arrived, it goes as an extended CONNECT on that stream if they said
    ///   `SETTINGS_ENABLE_CONNECT_PROTOCOL = 1`; if they did not, the stream is given back unused and the handshake
    ///   opens an HTTP/1.1 upgrade on a connection of its own. When ALPN picks `http/1.1`, the upgrade goes on that
    ///   connection.
    /// - Otherwise (``HTTPVersionPolicy/http1Only``, clear text without prior knowledge, `http` through an HTTP
    ///   proxy) the upgrade goes on a connection of its own, offering `http/1.1` alone in ALPN.
    ///
    /// Either way the parser ends an HTTP/1.1 response at a `101`, and `plan` keeps the offer to check the answer
    /// against.
    func planWebSocket(_ plan: inout ExchangePlan, for request: HTTPRequest, key: String) throws(APIClientError) {
        plan.webSocket = WebSocketOffer(
            request, key: key, options: WebSocketUpgrade.current?.options ?? WebSocket.Options())
        let origin = plan.route.origin
        let policy = configuration.httpVersion
        let mayUseHTTP2 =
            origin.isTLS
            ? policy.offersHTTP2 : policy.cleartextHTTP2 && plan.route.proxy == nil
        var http1TLSContext: TLSContext?
        if origin.isTLS {
            switch TLSContextCache.context(for: configuration.tls, alpn: .http1, origin: origin) {
            case .success(let context): http1TLSContext = context
            case .failure(let error):
                throw .networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed, underlying: error))
            }
        }
        if mayUseHTTP2 {
            plan.webSocketTriesHTTP2 = true
            plan.webSocketFallbackTLSContext = http1TLSContext
        } else {
            plan.route.upgradesToWebSocket = true
            plan.tlsContext = http1TLSContext
        }
    }
}
