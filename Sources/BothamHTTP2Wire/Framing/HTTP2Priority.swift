/// The priority fields of a PRIORITY frame and of a HEADERS frame with the PRIORITY flag (RFC 9113 §6.2, §6.3).
/// RFC 9113 deprecates this scheme (§5.3.2): we parse the fields so the frame's layout is read right, and ignore
/// them.
package struct HTTP2Priority: Hashable, Sendable {
    /// The octets the fields take.
    static let size = 5

    /// Whether the dependency is exclusive (the E bit).
    package var exclusive: Bool
    /// The stream this one depends on.
    package var dependency: HTTP2StreamID
    /// The weight octet as sent: the weight minus one (0 means 1, 255 means 256).
    package var weight: UInt8

    /// Fields of these values.
    package init(exclusive: Bool = false, dependency: HTTP2StreamID, weight: UInt8 = 15) {
        self.exclusive = exclusive
        self.dependency = dependency
        self.weight = weight
    }

    /// Reads the 5 octets at `offset`; `bytes` must hold them.
    init(_ bytes: [UInt8], at offset: Int) {
        let word = HTTP2Bytes.uint32(bytes, at: offset)
        exclusive = word & 0x8000_0000 != 0
        dependency = HTTP2StreamID(word)
        weight = bytes[offset + 4]
    }

    /// Appends the 5 octets.
    func write(into buffer: inout [UInt8]) {
        HTTP2Bytes.append(dependency.rawValue | (exclusive ? 0x8000_0000 : 0), to: &buffer)
        buffer.append(weight)
    }
}
