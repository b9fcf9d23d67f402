/// A stream identifier (RFC 9113 §5.1.1): 31 bits, odd for streams a client opens, even for those a server
/// promises, and 0 for frames about the whole connection.
///
/// The frame header's reserved bit is not part of it: it is dropped on read and sent as 0 (§4.1).
package struct HTTP2StreamID: RawRepresentable, Hashable, Comparable, Sendable {
    /// The largest identifier, 2^31 − 1.
    package static let maximum = HTTP2StreamID(0x7FFF_FFFF)
    /// Stream 0: the connection itself (SETTINGS, PING, GOAWAY, connection WINDOW_UPDATE).
    package static let connection = HTTP2StreamID(0)

    /// The identifier's 31 bits.
    package let rawValue: UInt32

    /// The identifier in the low 31 bits of `rawValue`; the reserved top bit is dropped.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue & 0x7FFF_FFFF
    }

    /// The identifier in the low 31 bits of `value`; the reserved top bit is dropped.
    package init(_ value: UInt32) {
        self.init(rawValue: value)
    }

    /// Whether this is stream 0, the connection.
    package var isConnection: Bool { rawValue == 0 }
    /// Whether a client opens streams with this identifier (odd).
    package var isClientInitiated: Bool { rawValue & 1 == 1 }
    /// Whether a server promises streams with this identifier (even, not 0).
    package var isServerInitiated: Bool { rawValue != 0 && rawValue & 1 == 0 }

    /// Orders identifiers by their value, as streams are opened.
    package static func < (lhs: HTTP2StreamID, rhs: HTTP2StreamID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension HTTP2StreamID: ExpressibleByIntegerLiteral {
    /// The identifier `value` (its reserved top bit dropped).
    package init(integerLiteral value: UInt32) {
        self.init(rawValue: value)
    }
}

extension HTTP2StreamID: CustomStringConvertible {
    /// `stream 5`, or `connection` for stream 0.
    package var description: String { isConnection ? "connection" : "stream \(rawValue)" }
}
