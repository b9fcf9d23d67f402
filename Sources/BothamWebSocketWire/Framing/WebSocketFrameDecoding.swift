extension WebSocketFrame {
    /// One frame read from the start of some bytes, with what the wire said about it.
    package struct Decoded: Sendable, Equatable {
        /// The frame, its payload unmasked.
        package var frame: WebSocketFrame
        /// The masking key, when the frame was masked.
        package var maskingKey: UInt32?
        /// RSV2 and RSV3 as they were on the wire (bits 0x20 and 0x10 of the first byte).
        package var reservedBits: UInt8
        /// How many bytes the frame took.
        package var byteCount: Int
    }

    /// Reads one whole frame from the start of `bytes`, with no protocol policy (no limits, no role): nil when
    /// the bytes hold less than one frame or the frame is malformed (an unknown opcode, a 64-bit length with
    /// its top bit set, a length this process cannot hold).
    ///
    /// For tests and test servers reading what a session wrote; the session parses incrementally itself.
    package static func decode(_ bytes: some Collection<UInt8>) -> Decoded? {
        let bytes = Array(bytes)
        guard bytes.count >= 2, let opcode = WebSocketOpcode(rawValue: bytes[0] & 0x0F) else { return nil }
        var offset = 2
        var length = UInt64(bytes[1] & 0x7F)
        if length == 126 || length == 127 {
            let width = length == 126 ? 2 : 8
            guard bytes.count >= offset + width else { return nil }
            length = 0
            for byte in bytes[offset..<(offset + width)] { length = length << 8 | UInt64(byte) }
            offset += width
            guard length >> 63 == 0 else { return nil }
        }
        var maskingKey: UInt32?
        if bytes[1] & 0x80 != 0 {
            guard bytes.count >= offset + 4 else { return nil }
            maskingKey = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
            offset += 4
        }
        guard length <= UInt64(bytes.count - offset) else { return nil }
        let end = offset + Int(length)
        var payload = Array(bytes[offset..<end])
        if let maskingKey {
            payload.withUnsafeMutableBytes { applyMask(maskBytes(maskingKey), from: 0, to: $0) }
        }
        let frame = WebSocketFrame(
            fin: bytes[0] & 0x80 != 0, rsv1: bytes[0] & 0x40 != 0, opcode: opcode, payload: payload)
        return Decoded(frame: frame, maskingKey: maskingKey, reservedBits: bytes[0] & 0x30, byteCount: end)
    }

    /// Every whole frame at the start of `bytes`, in order (stopping at the first incomplete or malformed one).
    package static func decodeAll(_ bytes: [UInt8]) -> [Decoded] {
        var frames: [Decoded] = []
        var rest = bytes[...]
        while let decoded = decode(rest) {
            frames.append(decoded)
            rest = rest.dropFirst(decoded.byteCount)
        }
        return frames
    }
}
