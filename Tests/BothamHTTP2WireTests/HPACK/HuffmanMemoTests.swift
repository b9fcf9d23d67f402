import Testing

@testable import BothamHTTP2Wire

@Suite("The decoder remembers recent Huffman-coded strings", .timeLimit(.minutes(1)))
struct HuffmanMemoTests {
    /// `text` Huffman-coded.
    private static func coded(_ text: String) -> ArraySlice<UInt8> {
        var buffer: [UInt8] = []
        HuffmanEncoding.encode(Array(text.utf8), into: &buffer)
        return buffer[...]
    }

    @Test("Each coded string decodes to its own text, whether remembered or not, past the memo's capacity")
    func decodesEveryStringToItsOwnText() throws {
        var memo = HuffmanMemo()
        let texts = (0..<(HuffmanMemo.capacity * 2 + 3)).map { "value-\($0)" }
        for round in 0..<3 {
            for text in texts + texts.prefix(3) {
                #expect(try memo.decode(Self.coded(text)) == Array(text.utf8), "round \(round): \(text)")
            }
        }
        #expect(memo.count == HuffmanMemo.capacity, "bounded: the oldest made room")
        // Four strings over and over: every decode after the first four is an answer from the memo.
        var fresh = HuffmanMemo()
        for _ in 0..<3 {
            for text in texts.suffix(4) {
                #expect(try fresh.decode(Self.coded(text)) == Array(text.utf8), "remembered: \(text)")
            }
        }
        #expect(fresh.count == 4, "each string kept once")
        #expect(try memo.decode(Self.coded("nginx")) == Array("nginx".utf8))
        #expect(try memo.decode(Self.coded("nginy")) == Array("nginy".utf8), "same length, other octets")
    }

    @Test("Long strings bypass it and bad codes still fail every time")
    func longAndInvalidStrings() {
        var memo = HuffmanMemo()
        let long = String(repeating: "x", count: 200)
        #expect((try? memo.decode(Self.coded(long))) == Array(long.utf8))
        #expect(memo.count == 0, "a string longer than maxCodedLength is not kept")
        // 0xFF 0xFF 0xFF 0xFF: 32 one-bits, the EOS symbol's 30-bit code inside, which a string must not contain.
        let invalid: ArraySlice<UInt8> = [0xFF, 0xFF, 0xFF, 0xFF]
        for _ in 0..<2 {
            #expect(throws: HPACKError.self) { try memo.decode(invalid) }
        }
        #expect(memo.count == 0, "a failed decoding is not kept")
    }

    @Test("A decoder reads nginx-style responses with the same coded values block after block")
    func decoderReadsRepeatedBlocks() throws {
        // No dynamic table on the encoder's side, as nginx: every value comes as a Huffman-coded literal.
        var encoder = HPACKEncoder(maxTableSize: 0, preferredTableSize: 0, huffman: .unlessLonger, indexing: .sensible)
        var decoder = HPACKDecoder()
        for second in 0..<20 {
            let fields = [
                HPACKHeaderField(name: ":status", value: "200"),
                HPACKHeaderField(name: "server", value: "nginx/1.22.1"),
                HPACKHeaderField(name: "date", value: "Sat, 05 Dec 2026 00:00:\(10 + second % 3) GMT"),
                HPACKHeaderField(name: "etag", value: "\"6931e1b2-\(second % 2)\""),
            ]
            #expect(try decoder.decode(encoder.encode(fields)) == fields)
        }
    }
}
