import Foundation

/// The client's side of the opening handshake that every transport shares: the `GET` with its `Upgrade` fields
/// (RFC 6455 §4.1), made before any interceptor sees it.
package enum WebSocketOpening {
    /// Why a handshake failed, as the `underlying` error of the ``APIClientError`` it ends with.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What was wrong.
        package let description: String

        /// A failure saying `description`.
        package init(_ description: String) {
            self.description = description
        }
    }

    /// The handshake request: `GET path` with `Upgrade: websocket`, `Connection: Upgrade`,
    /// `Sec-WebSocket-Version: 13`, a fresh `Sec-WebSocket-Key` (16 bytes from the system's CSPRNG), the offered
    /// subprotocols and, when `options.compression`, `permessage-deflate`; accepting only a response that switched
    /// protocols.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` for a subprotocol that is not a token or is offered
    ///   twice, and for `headers` that set a field the handshake owns. Nothing is sent then.
    package static func request(
        baseEndpoint: String, path: String, parameters: HTTPParameters, headers: HTTPHeaders, protocols: [String],
        options: WebSocket.Options
    ) throws(APIClientError) -> HTTPRequest {
        let owned: [HTTPFieldName] = [
            .upgrade, .connection, .secWebSocketKey, .secWebSocketVersion, .secWebSocketProtocol,
            .secWebSocketExtensions,
        ]
        if let field = owned.first(where: { headers.contains($0) }) {
            throw .invalidRequest(
                reason: "\(field) is set by webSocket(...): pass subprotocols as `protocols` and choices as `options`")
        }
        if let invalid = protocols.first(where: { !HTTPToken.isToken($0.utf8) }) {
            throw .invalidRequest(reason: "WebSocket subprotocol \(DebugText.quoted(invalid)) is not a token")
        }
        guard Set(protocols.map { $0.lowercased() }).count == protocols.count else {
            throw .invalidRequest(reason: "a WebSocket subprotocol is offered twice: \(protocols)")
        }
        guard options.maxMessageSize > 0 else {
            throw .invalidRequest(reason: "WebSocket.Options.maxMessageSize must be positive")
        }
        var fields = headers
        fields.add(.upgrade, "websocket")
        fields.add(.connection, "Upgrade")
        fields.add(.secWebSocketVersion, "13")
        fields.add(.secWebSocketKey, makeKey())
        if !protocols.isEmpty { fields.add(.secWebSocketProtocol, protocols.joined(separator: ", ")) }
        if options.compression { fields.add(.secWebSocketExtensions, deflateOffer) }
        return HTTPRequest(
            method: .get, baseEndpoint: httpEndpoint(baseEndpoint), path: path, parameters: parameters,
            headers: fields
        )
        .accepting(ResponseValidation { response in response.upgrade != nil || response.statusCode == 101 })
    }

    /// The `permessage-deflate` offer (RFC 7692 §7.1): the client lets the server bound the client's window too.
    package static let deflateOffer = "permessage-deflate; client_max_window_bits"

    /// `baseEndpoint` with a `ws` or `wss` scheme as `http` or `https` (RFC 6455 §3: the same resources).
    package static func httpEndpoint(_ baseEndpoint: String) -> String {
        let lowered = baseEndpoint.prefix(6).lowercased()
        if lowered.hasPrefix("wss://") { return "https://" + baseEndpoint.dropFirst(6) }
        if lowered.hasPrefix("ws://") { return "http://" + baseEndpoint.dropFirst(5) }
        return baseEndpoint
    }

    /// A `Sec-WebSocket-Key`: 16 random bytes, base64-encoded (RFC 6455 §4.1).
    package static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
    }
}
