import BothamTestSupport
import Testing

@testable import BothamHTTP2Wire

@Suite("HPACK: Huffman code (RFC 7541 §5.2, Appendix B)", .timeLimit(.minutes(1)))
struct HuffmanTests {
    @Test("The table is Appendix B's shape: 257 codes of 5–30 bits, a complete prefix code, EOS 30 ones")
    func tableShape() {
        let codes = HuffmanCodeTable.codes
        #expect(codes.count == 257)
        #expect(codes.allSatisfy { (5...30).contains($0.length) && $0.code < (UInt32(1) << UInt32($0.length)) })
        #expect(codes[256].code == 0x3FFF_FFFF && codes[256].length == 30)
        // Kraft sum exactly 1: no bit string is left without a meaning.
        #expect(codes.reduce(UInt64(0)) { $0 + (UInt64(1) << UInt64(30 - $1.length)) } == 1 << 30)
        #expect(codes[Int(UInt8(ascii: "0"))].code == 0x0 && codes[Int(UInt8(ascii: "a"))].code == 0x3)
    }

    @Test(
        "Strings of Appendix C encode to the RFC's bytes and back",
        arguments: [
            ("www.example.com", "f1e3c2e5f23a6ba0ab90f4ff"), ("no-cache", "a8eb10649cbf"),
            ("custom-key", "25a849e95ba97d7f"), ("custom-value", "25a849e95bb8e8b4bf"), ("302", "6402"),
            ("307", "640eff"), ("gzip", "9bd9ab"), ("private", "aec3771a4b"),
        ])
    func appendixCStrings(text: String, hex: String) throws {
        var encoded: [UInt8] = []
        HuffmanEncoding.encode(Array(text.utf8), into: &encoded)
        #expect(HPACKTestSupport.hex(encoded) == hex)
        #expect(HuffmanEncoding.encodedLength(of: Array(text.utf8)) == encoded.count)
        #expect(try HuffmanDecoding.decode(encoded[...]) == Array(text.utf8))
    }

    @Test("Every byte value round-trips, alone, repeated and all together")
    func everyByte() throws {
        for byte in 0...255 {
            for count in [1, 2, 3, 7, 8] {
                let bytes = [UInt8](repeating: UInt8(byte), count: count)
                var encoded: [UInt8] = []
                HuffmanEncoding.encode(bytes, into: &encoded)
                #expect(encoded.count == HuffmanEncoding.encodedLength(of: bytes))
                #expect(try HuffmanDecoding.decode(encoded[...]) == bytes)
            }
        }
        let all = (0...255).map(UInt8.init)
        var encoded: [UInt8] = []
        HuffmanEncoding.encode(all + all.reversed(), into: &encoded)
        #expect(try HuffmanDecoding.decode(encoded[...]) == all + all.reversed())
    }

    @Test("Random byte strings round-trip")
    func randomStrings() throws {
        var random = SplitMix64(seed: 5)
        for _ in 0..<500 {
            let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var encoded: [UInt8] = []
            HuffmanEncoding.encode(bytes, into: &encoded)
            #expect(try HuffmanDecoding.decode(encoded[...]) == bytes)
        }
    }

    @Test("The empty string is empty both ways")
    func empty() throws {
        var encoded: [UInt8] = []
        HuffmanEncoding.encode([], into: &encoded)
        #expect(encoded.isEmpty)
        #expect(try HuffmanDecoding.decode([]) == [])
    }

    @Test(
        "Padding longer than 7 bits or not all ones is an error",
        arguments: [
            // a whole byte of ones after the string
            "f1e3c2e5f23a6ba0ab90f4ffff",
            // only padding, 8 bits of it
            "ff",
            // '0' (00000) padded with 000, then with 110
            "00", "06",
            // 'a' (00011) padded with 011
            "1b",
        ])
    func badPadding(hex: String) {
        #expect(throws: HPACKError.invalidHuffmanPadding) {
            try HuffmanDecoding.decode(HPACKTestSupport.bytes(hex)[...])
        }
    }

    @Test(
        "The EOS symbol inside a string is an error",
        arguments: [
            // EOS alone, padded with two ones
            "ffffffff",
            // '0' then EOS then five ones of padding
            "07ffffffff",
        ])
    func endOfString(hex: String) {
        #expect(throws: HPACKError.huffmanEndOfString) {
            try HuffmanDecoding.decode(HPACKTestSupport.bytes(hex)[...])
        }
    }
}
