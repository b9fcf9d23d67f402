extension WebSocket {
    /// A close code (RFC 6455 §7.4), named as `URLSessionWebSocketTask.CloseCode` names them.
    public enum CloseCode: Sendable, Hashable {
        /// 1000: the purpose of the connection was fulfilled.
        case normalClosure
        /// 1001: an endpoint is going away (a server shutting down, a client dropping the socket).
        case goingAway
        /// 1002: an endpoint broke the protocol.
        case protocolError
        /// 1003: an endpoint received a type of data it cannot accept.
        case unsupportedData
        /// 1005: the close frame carried no code (never sent).
        case noStatusReceived
        /// 1006: the connection ended without a close frame (never sent).
        case abnormalClosure
        /// 1007: a message's data did not match its type (text that is not UTF-8).
        case invalidFramePayloadData
        /// 1008: a message broke the endpoint's policy.
        case policyViolation
        /// 1009: a message was too big to process.
        case messageTooBig
        /// 1010: the server did not negotiate an extension the client needs.
        case mandatoryExtensionMissing
        /// 1011: the server met an unexpected condition.
        case internalServerError
        /// Any other code: 1012–1014 (registered) or 3000–4999 (libraries, frameworks and applications).
        case other(UInt16)

        /// The code `rawValue` stands for.
        public init(_ rawValue: UInt16) {
            switch rawValue {
            case 1000: self = .normalClosure
            case 1001: self = .goingAway
            case 1002: self = .protocolError
            case 1003: self = .unsupportedData
            case 1005: self = .noStatusReceived
            case 1006: self = .abnormalClosure
            case 1007: self = .invalidFramePayloadData
            case 1008: self = .policyViolation
            case 1009: self = .messageTooBig
            case 1010: self = .mandatoryExtensionMissing
            case 1011: self = .internalServerError
            default: self = .other(rawValue)
            }
        }

        /// The number sent on the wire.
        public var rawValue: UInt16 {
            switch self {
            case .normalClosure: 1000
            case .goingAway: 1001
            case .protocolError: 1002
            case .unsupportedData: 1003
            case .noStatusReceived: 1005
            case .abnormalClosure: 1006
            case .invalidFramePayloadData: 1007
            case .policyViolation: 1008
            case .messageTooBig: 1009
            case .mandatoryExtensionMissing: 1010
            case .internalServerError: 1011
            case .other(let code): code
            }
        }
    }
}
