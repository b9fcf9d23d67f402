/// What an opening handshake settled: the subprotocol and the permessage-deflate parameters, if any.
package struct WebSocketNegotiation: Sendable, Equatable {
    /// The subprotocol the server chose from those offered, or nil when it chose none.
    package var subprotocol: String?
    /// The permessage-deflate parameters, or nil when the extension is not in use.
    package var deflate: PerMessageDeflate.Parameters?

    /// A negotiation result.
    package init(subprotocol: String? = nil, deflate: PerMessageDeflate.Parameters? = nil) {
        self.subprotocol = subprotocol
        self.deflate = deflate
    }
}
