/// One WebSocket frame (RFC 6455 §5.2), its payload unmasked.
///
/// The session builds and reads frames itself; this value is for writing arbitrary frames (a test server's
/// faults) and reading back what a session wrote.
package struct WebSocketFrame: Sendable, Equatable {
    /// Whether this is the final fragment of its message.
    package var fin: Bool
    /// RSV1: set on the first frame of a compressed message when permessage-deflate is negotiated.
    package var rsv1: Bool
    /// The opcode.
    package var opcode: WebSocketOpcode
    /// The payload, unmasked.
    package var payload: [UInt8]

    /// A frame of `opcode` carrying `payload`.
    package init(fin: Bool = true, rsv1: Bool = false, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.rsv1 = rsv1
        self.opcode = opcode
        self.payload = payload
    }

    /// Appends this frame's wire form to `output`: masked with `maskingKey` (its big-endian bytes) when one is
    /// given, as a client must; the shortest length encoding.
    package func encode(maskingKey: UInt32?, into output: inout [UInt8]) {
        WebSocketFrame.appendHeader(
            fin: fin, rsv1: rsv1, opcode: opcode.rawValue, length: payload.count, maskingKey: maskingKey,
            into: &output)
        WebSocketFrame.appendPayload(payload[...], maskingKey: maskingKey, into: &output)
    }

    /// This frame's wire form; see ``encode(maskingKey:into:)``.
    package func encoded(maskingKey: UInt32?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(payload.count + 14)
        encode(maskingKey: maskingKey, into: &output)
        return output
    }

    /// Appends a frame header with a raw opcode and RSV1 (RSV2 and RSV3 clear) and the shortest length form.
    static func appendHeader(
        fin: Bool, rsv1: Bool, opcode: UInt8, length: Int, maskingKey: UInt32?, into output: inout [UInt8]
    ) {
        output.append((fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (opcode & 0x0F))
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if length < 126 {
            output.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            output.append(maskBit | 126)
            output.append(UInt8(truncatingIfNeeded: length >> 8))
            output.append(UInt8(truncatingIfNeeded: length))
        } else {
            output.append(maskBit | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: wide >> UInt64(shift)))
            }
        }
        if let maskingKey {
            output.append(UInt8(truncatingIfNeeded: maskingKey >> 24))
            output.append(UInt8(truncatingIfNeeded: maskingKey >> 16))
            output.append(UInt8(truncatingIfNeeded: maskingKey >> 8))
            output.append(UInt8(truncatingIfNeeded: maskingKey))
        }
    }

    /// Appends `payload`, masked with `maskingKey` from its first byte when one is given.
    static func appendPayload(_ payload: ArraySlice<UInt8>, maskingKey: UInt32?, into output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: payload)
        guard let maskingKey else { return }
        output.withUnsafeMutableBytes { buffer in
            applyMask(maskBytes(maskingKey), from: 0, to: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// XORs `buffer` with the masking key `mask` (its four bytes in wire order), the buffer's first byte being
    /// byte `offset` of the payload (RFC 6455 §5.3); eight bytes at a time.
    static func applyMask(_ mask: [UInt8], from offset: Int, to buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, mask.count == 4 else { return }
        let count = buffer.count
        var index = 0
        // Bytes until the payload position is a multiple of four, so the word pattern starts at mask[0].
        while index < count && (offset + index) & 3 != 0 {
            buffer[index] ^= mask[(offset + index) & 3]
            index += 1
        }
        var word: UInt64 = 0
        for byte in (mask + mask).reversed() { word = word << 8 | UInt64(byte) }
        let pattern = UInt64(littleEndian: word)
        while index + 8 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: value ^ pattern, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            buffer[index] ^= mask[(offset + index) & 3]
            index += 1
        }
    }

    /// The masking key's four bytes in wire order.
    static func maskBytes(_ key: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: key >> 24), UInt8(truncatingIfNeeded: key >> 16),
            UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key),
        ]
    }
}
