/// The opening handshake (RFC 6455 §4, RFC 8441 §4 over HTTP/2): the key, the accept value, the request headers,
/// and the checks of each side. Pure functions of their arguments.
package enum WebSocketHandshake {
    /// The GUID RFC 6455 §1.3 appends to the key before hashing.
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only protocol version: 13.
    package static let version = "13"

    /// A `Sec-WebSocket-Key`: the base64 of `random` (16 bytes from a CSPRNG; other lengths are used as given,
    /// which a server refuses).
    package static func makeKey(random: [UInt8]) -> String {
        Base64.encode(random)
    }

    /// The `Sec-WebSocket-Accept` value for `key`: base64(SHA-1(key + GUID)).
    package static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// The client's handshake headers: for an HTTP/1.1 upgrade with `key` (`Upgrade`, `Connection`,
    /// `Sec-WebSocket-Key`, `Sec-WebSocket-Version`), or for RFC 8441's extended CONNECT when `key` is nil (the
    /// version only; the caller sends `:protocol: websocket`); then the subprotocols and the deflate offer when
    /// there are any.
    package static func requestHeaders(key: String?, protocols: [String], deflate: PerMessageDeflate.Offer?)
        -> [(String, String)]
    {
        var headers: [(String, String)] = []
        if let key {
            headers += [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key)]
        }
        headers.append(("Sec-WebSocket-Version", version))
        if !protocols.isEmpty { headers.append(("Sec-WebSocket-Protocol", protocols.joined(separator: ", "))) }
        if let deflate { headers.append(("Sec-WebSocket-Extensions", deflate.headerValue)) }
        return headers
    }

    /// Client side, RFC 6455 §4.1: checks an HTTP/1.1 upgrade response and returns what it settled. Status 101,
    /// `Upgrade: websocket` (case-insensitive), `Connection` containing `Upgrade`, `Sec-WebSocket-Accept` matching
    /// `key`, `Sec-WebSocket-Protocol` absent or one of `offeredProtocols`, `Sec-WebSocket-Extensions` only
    /// `permessage-deflate`, only when offered, with valid parameters. Header names are case-insensitive.
    package static func validateResponse(
        status: Int, headers: [(String, String)], key: String, offeredProtocols: [String],
        offeredDeflate: PerMessageDeflate.Offer?
    ) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        guard status == 101 else {
            throw WebSocketHandshakeError("expected status 101 Switching Protocols for the upgrade, got \(status)")
        }
        let upgrade = values("upgrade", in: headers)
        guard upgrade.count == 1, WebSocketHeaderSyntax.trim(upgrade[0]).lowercased() == "websocket" else {
            throw WebSocketHandshakeError(
                upgrade.isEmpty
                    ? "Upgrade header missing from the 101 response"
                    : "Upgrade header is \(upgrade.joined(separator: ", ")), not websocket")
        }
        let connection = WebSocketHeaderSyntax.listElements(values("connection", in: headers))
        guard connection.contains(where: { $0.lowercased() == "upgrade" }) else {
            throw WebSocketHandshakeError("Connection header does not contain Upgrade")
        }
        let accept = values("sec-websocket-accept", in: headers)
        guard accept.count == 1 else {
            throw WebSocketHandshakeError(
                accept.isEmpty ? "Sec-WebSocket-Accept header missing" : "Sec-WebSocket-Accept header repeated")
        }
        guard WebSocketHeaderSyntax.trim(accept[0]) == acceptValue(forKey: key) else {
            throw WebSocketHandshakeError("Sec-WebSocket-Accept does not match the Sec-WebSocket-Key sent")
        }
        return try validateNegotiation(
            headers: headers, offeredProtocols: offeredProtocols, offeredDeflate: offeredDeflate)
    }

    /// Client side over HTTP/2 (RFC 8441 §5): the checks of ``validateResponse(status:headers:key:offeredProtocols:offeredDeflate:)``
    /// without the upgrade's: a 2xx status (200) and the subprotocol and extension checks.
    package static func validateExtendedConnectResponse(
        status: Int, headers: [(String, String)], offeredProtocols: [String],
        offeredDeflate: PerMessageDeflate.Offer?
    ) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        guard (200...299).contains(status) else {
            throw WebSocketHandshakeError("expected a 2xx status for the extended CONNECT, got \(status)")
        }
        return try validateNegotiation(
            headers: headers, offeredProtocols: offeredProtocols, offeredDeflate: offeredDeflate)
    }

    /// A server's answer to a valid client handshake.
    package struct ServerAcceptance: Sendable {
        /// The response headers to send (with status 101 for an upgrade, 200 for an extended CONNECT).
        package var headers: [(String, String)]
        /// What the handshake settled; give its deflate parameters to the server's session.
        package var negotiation: WebSocketNegotiation
    }

    /// Server side: checks a client's handshake request and returns the response headers, or why it is invalid.
    ///
    /// For an HTTP/1.1 upgrade (`extendedConnect` false): method GET, `Upgrade` containing `websocket`,
    /// `Connection` containing `Upgrade`, `Sec-WebSocket-Version: 13`, a `Sec-WebSocket-Key` of 16 bytes in base64.
    /// For an RFC 8441 extended CONNECT (the caller checked `:protocol: websocket`): method CONNECT and the version.
    /// The subprotocol is the first the client lists that `supportedProtocols` holds; deflate is accepted when
    /// `deflate` is given and the client offered it.
    package static func acceptRequest(
        method: String, headers: [(String, String)], supportedProtocols: [String],
        deflate: PerMessageDeflate.ServerPolicy?, extendedConnect: Bool = false
    ) throws(WebSocketHandshakeError) -> ServerAcceptance {
        var response: [(String, String)] = []
        if extendedConnect {
            guard method == "CONNECT" else {
                throw WebSocketHandshakeError("an extended CONNECT must use CONNECT, not \(method)")
            }
        } else {
            guard method == "GET" else {
                throw WebSocketHandshakeError("a WebSocket upgrade must use GET, not \(method)")
            }
            let upgrade = WebSocketHeaderSyntax.listElements(values("upgrade", in: headers))
            guard upgrade.contains(where: { $0.lowercased() == "websocket" }) else {
                throw WebSocketHandshakeError("Upgrade header does not contain websocket")
            }
            let connection = WebSocketHeaderSyntax.listElements(values("connection", in: headers))
            guard connection.contains(where: { $0.lowercased() == "upgrade" }) else {
                throw WebSocketHandshakeError("Connection header does not contain Upgrade")
            }
        }
        let versions = values("sec-websocket-version", in: headers).map { WebSocketHeaderSyntax.trim($0) }
        guard versions == [version] else {
            throw WebSocketHandshakeError("Sec-WebSocket-Version must be 13, got \(versions.joined(separator: ", "))")
        }
        if !extendedConnect {
            let keys = values("sec-websocket-key", in: headers).map { WebSocketHeaderSyntax.trim($0) }
            guard keys.count == 1, Base64.decode(keys[0])?.count == 16 else {
                throw WebSocketHandshakeError("Sec-WebSocket-Key must be one base64 value of 16 bytes")
            }
            response = [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Accept", acceptValue(forKey: keys[0])),
            ]
        }
        var negotiation = WebSocketNegotiation()
        let offered = WebSocketHeaderSyntax.listElements(values("sec-websocket-protocol", in: headers))
        if let chosen = offered.first(where: { supportedProtocols.contains($0) }) {
            negotiation.subprotocol = chosen
            response.append(("Sec-WebSocket-Protocol", chosen))
        }
        if let deflate,
            let parameters = PerMessageDeflate.accept(
                offers: values("sec-websocket-extensions", in: headers), policy: deflate)
        {
            negotiation.deflate = parameters
            response.append(("Sec-WebSocket-Extensions", parameters.headerValue))
        }
        return ServerAcceptance(headers: response, negotiation: negotiation)
    }

    /// The subprotocol and extension checks both client variants share.
    private static func validateNegotiation(
        headers: [(String, String)], offeredProtocols: [String], offeredDeflate: PerMessageDeflate.Offer?
    ) throws(WebSocketHandshakeError) -> WebSocketNegotiation {
        var negotiation = WebSocketNegotiation()
        let protocols = WebSocketHeaderSyntax.listElements(values("sec-websocket-protocol", in: headers))
        if !protocols.isEmpty {
            guard protocols.count == 1 else {
                throw WebSocketHandshakeError("Sec-WebSocket-Protocol names more than one subprotocol")
            }
            guard offeredProtocols.contains(protocols[0]) else {
                throw WebSocketHandshakeError(
                    "Sec-WebSocket-Protocol \(protocols[0]) was not offered"
                        + (offeredProtocols.isEmpty ? " (none was)" : ""))
            }
            negotiation.subprotocol = protocols[0]
        }
        let extensions = WebSocketHeaderSyntax.extensionElements(values("sec-websocket-extensions", in: headers))
        for element in extensions {
            guard element.name == PerMessageDeflate.extensionName else {
                throw WebSocketHandshakeError(
                    "Sec-WebSocket-Extensions: \(element.name.isEmpty ? "a malformed extension" : element.name) was not offered"
                )
            }
            guard let offer = offeredDeflate else {
                throw WebSocketHandshakeError("Sec-WebSocket-Extensions: permessage-deflate was not offered")
            }
            guard negotiation.deflate == nil else {
                throw WebSocketHandshakeError("Sec-WebSocket-Extensions: permessage-deflate accepted twice")
            }
            negotiation.deflate = try PerMessageDeflate.validateResponse(element.parameters, offer: offer)
        }
        return negotiation
    }

    /// The values of the header `lowercasedName` (names compare case-insensitively).
    static func values(_ lowercasedName: String, in headers: [(String, String)]) -> [String] {
        headers.filter { $0.0.lowercased() == lowercasedName }.map(\.1)
    }
}
