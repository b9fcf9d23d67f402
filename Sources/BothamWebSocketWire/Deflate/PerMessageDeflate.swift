/// The permessage-deflate extension (RFC 7692): what a client offers, what a server accepts, and the checks on
/// each side.
package enum PerMessageDeflate {
    /// The extension's name in `Sec-WebSocket-Extensions`.
    package static let extensionName = "permessage-deflate"

    /// A client's offer.
    package struct Offer: Sendable, Equatable {
        /// `client_max_window_bits`: nil offers the bare parameter (the server may then pick a value), a value
        /// 8–15 limits our own compressor's window; absent when `offersClientMaxWindowBits` is false.
        package var clientMaxWindowBits: Int?
        /// Whether `client_max_window_bits` is offered at all.
        package var offersClientMaxWindowBits: Bool
        /// `server_max_window_bits=N` (8–15): asks the server to compress with at most that window.
        package var serverMaxWindowBits: Int?
        /// `client_no_context_takeover`: we reset our compressor after each message.
        package var clientNoContextTakeover: Bool
        /// `server_no_context_takeover`: asks the server to reset its compressor after each message.
        package var serverNoContextTakeover: Bool

        /// An offer; the default offers the bare `client_max_window_bits` and nothing else.
        package init(
            clientMaxWindowBits: Int? = nil, offersClientMaxWindowBits: Bool = true, serverMaxWindowBits: Int? = nil,
            clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false
        ) {
            self.clientMaxWindowBits = clientMaxWindowBits.map { min(15, max(8, $0)) }
            self.offersClientMaxWindowBits = offersClientMaxWindowBits || clientMaxWindowBits != nil
            self.serverMaxWindowBits = serverMaxWindowBits.map { min(15, max(8, $0)) }
            self.clientNoContextTakeover = clientNoContextTakeover
            self.serverNoContextTakeover = serverNoContextTakeover
        }

        /// The `Sec-WebSocket-Extensions` value of this offer.
        package var headerValue: String {
            var parts = [PerMessageDeflate.extensionName]
            if clientNoContextTakeover { parts.append("client_no_context_takeover") }
            if serverNoContextTakeover { parts.append("server_no_context_takeover") }
            if let serverMaxWindowBits { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
            if let clientMaxWindowBits {
                parts.append("client_max_window_bits=\(clientMaxWindowBits)")
            } else if offersClientMaxWindowBits {
                parts.append("client_max_window_bits")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// What both ends agreed: each side's window (8–15) and whether each side resets its context per message.
    package struct Parameters: Sendable, Equatable {
        /// The largest window the server compresses with (`server_max_window_bits`, 15 when absent).
        package var serverMaxWindowBits: Int
        /// The largest window the client compresses with (`client_max_window_bits`, 15 when absent).
        package var clientMaxWindowBits: Int
        /// Whether the server resets its compressor after each message.
        package var serverNoContextTakeover: Bool
        /// Whether the client resets its compressor after each message.
        package var clientNoContextTakeover: Bool

        /// Agreed parameters; the defaults are RFC 7692's (15-bit windows, context takeover on both sides).
        package init(
            serverMaxWindowBits: Int = 15, clientMaxWindowBits: Int = 15, serverNoContextTakeover: Bool = false,
            clientNoContextTakeover: Bool = false
        ) {
            self.serverMaxWindowBits = min(15, max(8, serverMaxWindowBits))
            self.clientMaxWindowBits = min(15, max(8, clientMaxWindowBits))
            self.serverNoContextTakeover = serverNoContextTakeover
            self.clientNoContextTakeover = clientNoContextTakeover
        }

        /// The server's `Sec-WebSocket-Extensions` response value announcing these parameters (only the ones that
        /// differ from the defaults).
        package var headerValue: String {
            var parts = [PerMessageDeflate.extensionName]
            if serverNoContextTakeover { parts.append("server_no_context_takeover") }
            if clientNoContextTakeover { parts.append("client_no_context_takeover") }
            if serverMaxWindowBits < 15 { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
            if clientMaxWindowBits < 15 { parts.append("client_max_window_bits=\(clientMaxWindowBits)") }
            return parts.joined(separator: "; ")
        }
    }

    /// What a server is willing to agree to; ``accept(offers:policy:)`` picks the first client offer it can
    /// honour and narrows it to this.
    package struct ServerPolicy: Sendable, Equatable {
        /// Reset the server's compressor after every message.
        package var serverNoContextTakeover: Bool
        /// Ask the client to reset its compressor after every message.
        package var clientNoContextTakeover: Bool
        /// The largest window the server compresses with, when it wants one below 15.
        package var serverMaxWindowBits: Int?
        /// The largest window the client may use, when the server wants one below 15 (only sent when the client
        /// offered `client_max_window_bits`).
        package var clientMaxWindowBits: Int?

        /// A policy; the default accepts any offer as it is.
        package init(
            serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
            serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
        ) {
            self.serverNoContextTakeover = serverNoContextTakeover
            self.clientNoContextTakeover = clientNoContextTakeover
            self.serverMaxWindowBits = serverMaxWindowBits
            self.clientMaxWindowBits = clientMaxWindowBits
        }
    }

    /// Server side: the parameters for the first `permessage-deflate` offer among the client's
    /// `Sec-WebSocket-Extensions` values that is well formed, or nil when there is none (the server then answers
    /// without the extension). Put ``Parameters/headerValue`` in the response.
    package static func accept(offers headerValues: [String], policy: ServerPolicy = .init()) -> Parameters? {
        for element in WebSocketHeaderSyntax.extensionElements(headerValues) where element.name == extensionName {
            guard let offer = try? parseParameters(element.parameters) else { continue }
            var serverBits = offer.serverMaxWindowBits ?? 15
            if let wanted = policy.serverMaxWindowBits { serverBits = min(serverBits, wanted) }
            var clientBits = 15
            if offer.clientMaxWindowBitsPresent {
                clientBits = offer.clientMaxWindowBits ?? 15
                if let wanted = policy.clientMaxWindowBits { clientBits = min(clientBits, wanted) }
            }
            return Parameters(
                serverMaxWindowBits: serverBits, clientMaxWindowBits: clientBits,
                serverNoContextTakeover: offer.serverNoContextTakeover || policy.serverNoContextTakeover,
                clientNoContextTakeover: offer.clientNoContextTakeover || policy.clientNoContextTakeover)
        }
        return nil
    }

    /// Client side: the parameters a server's response element (its parameters as name/value pairs) sets, checked
    /// against `offer` as RFC 7692 §7.1 requires.
    static func validateResponse(_ parameters: [(String, String?)], offer: Offer) throws(WebSocketHandshakeError)
        -> Parameters
    {
        let response = try parseParameters(parameters)
        // A response without server_max_window_bits is read with a 15-bit window, which decodes whatever the
        // server sends; one above the offer is refused.
        if let bits = response.serverMaxWindowBits, let offered = offer.serverMaxWindowBits, bits > offered {
            throw WebSocketHandshakeError(
                "Sec-WebSocket-Extensions: server_max_window_bits=\(bits) is above the \(offered) offered")
        }
        if offer.serverNoContextTakeover && !response.serverNoContextTakeover {
            throw WebSocketHandshakeError(
                "Sec-WebSocket-Extensions: the server dropped the server_no_context_takeover the client offered")
        }
        if response.clientMaxWindowBitsPresent {
            guard offer.offersClientMaxWindowBits else {
                throw WebSocketHandshakeError(
                    "Sec-WebSocket-Extensions: client_max_window_bits in the response was not offered")
            }
            guard let bits = response.clientMaxWindowBits else {
                throw WebSocketHandshakeError("Sec-WebSocket-Extensions: client_max_window_bits without a value")
            }
            if let offered = offer.clientMaxWindowBits, bits > offered {
                throw WebSocketHandshakeError(
                    "Sec-WebSocket-Extensions: client_max_window_bits=\(bits) is above the \(offered) offered")
            }
        }
        return Parameters(
            serverMaxWindowBits: response.serverMaxWindowBits ?? 15,
            clientMaxWindowBits: response.clientMaxWindowBits ?? offer.clientMaxWindowBits ?? 15,
            serverNoContextTakeover: response.serverNoContextTakeover,
            clientNoContextTakeover: response.clientNoContextTakeover || offer.clientNoContextTakeover)
    }

    /// The parameters of one extension element, each known at most once with a valid value.
    struct ParsedParameters {
        var serverMaxWindowBits: Int?
        var clientMaxWindowBits: Int?
        var clientMaxWindowBitsPresent = false
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
    }

    /// Parses an element's parameters; any unknown, repeated or malformed one throws.
    static func parseParameters(_ parameters: [(String, String?)]) throws(WebSocketHandshakeError)
        -> ParsedParameters
    {
        var parsed = ParsedParameters()
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard seen.insert(name).inserted else {
                throw WebSocketHandshakeError("Sec-WebSocket-Extensions: \(extensionName) repeats \(name)")
            }
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == nil else {
                    throw WebSocketHandshakeError("Sec-WebSocket-Extensions: \(name) takes no value")
                }
                if name == "server_no_context_takeover" {
                    parsed.serverNoContextTakeover = true
                } else {
                    parsed.clientNoContextTakeover = true
                }
            case "server_max_window_bits":
                guard let bits = windowBits(value) else {
                    throw WebSocketHandshakeError(
                        "Sec-WebSocket-Extensions: server_max_window_bits needs a value 8–15, not \(value ?? "none")")
                }
                parsed.serverMaxWindowBits = bits
            case "client_max_window_bits":
                parsed.clientMaxWindowBitsPresent = true
                if let value {
                    guard let bits = windowBits(value) else {
                        throw WebSocketHandshakeError(
                            "Sec-WebSocket-Extensions: client_max_window_bits needs a value 8–15, not \(value)")
                    }
                    parsed.clientMaxWindowBits = bits
                }
            default:
                throw WebSocketHandshakeError("Sec-WebSocket-Extensions: unknown \(extensionName) parameter \(name)")
            }
        }
        return parsed
    }

    /// A window-bits value: 8–15, decimal digits without a leading zero.
    static func windowBits(_ value: String?) -> Int? {
        guard let value, let first = value.utf8.first, first != UInt8(ascii: "0"), value.utf8.count <= 2,
            value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let bits = Int(value),
            (8...15).contains(bits)
        else { return nil }
        return bits
    }
}
