/// The close status codes of RFC 6455 §7.4 that this module sends, and which codes may appear on the wire.
package struct WebSocketCloseCode: Sendable {
    /// 1000: the purpose of the connection is fulfilled.
    package static let normalClosure: UInt16 = 1000
    /// 1001: the endpoint is going away.
    package static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the protocol.
    package static let protocolError: UInt16 = 1002
    /// 1003: a data type the endpoint cannot accept.
    package static let unsupportedData: UInt16 = 1003
    /// 1005: no code was present (never sent on the wire; reported when a close frame had none).
    package static let noStatusReceived: UInt16 = 1005
    /// 1006: the connection closed without a close frame (never sent on the wire).
    package static let abnormalClosure: UInt16 = 1006
    /// 1007: a text message was not valid UTF-8, or a close reason was not.
    package static let invalidPayload: UInt16 = 1007
    /// 1008: a message violated the endpoint's policy.
    package static let policyViolation: UInt16 = 1008
    /// 1009: a frame or message was too big.
    package static let messageTooBig: UInt16 = 1009
    /// 1011: the server hit an unexpected condition.
    package static let internalError: UInt16 = 1011

    /// Whether `code` may appear in a close frame on the wire: 1000–1003, 1007–1014 and 3000–4999 (1004–1006 and
    /// 1015 are reserved or local-only; 0–999, 1016–2999 and 5000 and up are not valid).
    package static func isValidOnWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
