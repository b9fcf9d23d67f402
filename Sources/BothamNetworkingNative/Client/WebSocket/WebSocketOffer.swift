import BothamNetworking
import BothamWebSocketWire

/// What a WebSocket handshake request offered (read from the fields it was sent with, so an interceptor's change
/// counts) and the options of the socket it opens: what the `101` is checked against.
struct WebSocketOffer: Sendable {
    /// The `Sec-WebSocket-Key` sent.
    var key: String
    /// The subprotocols offered.
    var protocols: [String]
    /// The `permessage-deflate` offer, when one was made.
    var deflate: PerMessageDeflate.Offer?
    /// How the socket behaves once open.
    var options: WebSocket.Options

    /// The offer `request` makes, or `nil` when it asks for no WebSocket.
    init?(_ request: HTTPRequest, options: WebSocket.Options) {
        guard WebSocketUpgrade.isRequested(by: request), let key = request.headers[.secWebSocketKey] else {
            return nil
        }
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

    /// What the server agreed to in `response`, checked as RFC 6455 §4.1 says.
    func validate(_ response: ParsedResponse) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        try WebSocketHandshake.validateResponse(
            status: response.statusCode,
            headers: response.headers.fields.map { ($0.name.description, $0.value) },
            key: key, offeredProtocols: protocols, offeredDeflate: deflate)
    }
}

extension NativeHTTPClient {
    /// Makes `plan` a WebSocket handshake's when `request` asks for one: its own HTTP/1.1 connection (no `h2` in
    /// ALPN), a parser that ends the response at a `101`, and the offer to check the `101` against.
    func planWebSocket(_ plan: inout ExchangePlan, for request: HTTPRequest) throws(APIClientError) {
        guard let offer = WebSocketOffer(request, options: WebSocketUpgrade.current?.options ?? WebSocket.Options())
        else { return }
        plan.webSocket = offer
        plan.route.upgradesToWebSocket = true
        if plan.route.origin.isTLS {
            switch TLSContextCache.context(for: configuration.tls, alpn: .http1) {
            case .success(let context): plan.tlsContext = context
            case .failure(let error):
                throw .networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed, underlying: error))
            }
        }
    }
}
