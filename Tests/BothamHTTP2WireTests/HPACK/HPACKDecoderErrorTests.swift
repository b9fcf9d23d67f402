import BothamTestSupport
import Testing

@testable import BothamHTTP2Wire

/// Malformed and hostile header blocks: each one a typed ``HPACKError``, never a trap, and the limits against
/// compression bombs hold.
@Suite("HPACK: malformed and hostile blocks", .timeLimit(.minutes(1)))
struct HPACKDecoderErrorTests {
    @Test(
        "A block cut short is truncated",
        arguments: [
            "ff", "40", "41", "400a6375", "410a", "4003616263", "0f", "10", "7f", "3f",
        ])
    func truncated(hex: String) {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.truncated) { try decoder.decode(HPACKTestSupport.bytes(hex)) }
    }

    @Test("Index 0 is an error")
    func zeroIndex() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.zeroIndex) { try decoder.decode([0x80]) }
    }

    @Test(
        "An index past the static and dynamic tables is an error, for a field and for a name",
        arguments: [
            ("be", 62), ("7e0161", 62), ("0f2f0161", 62), ("1f4001", 79), ("ff8001", 255),
        ])
    func indexOutOfRange(hex: String, index: Int) {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.indexOutOfRange(index)) { try decoder.decode(HPACKTestSupport.bytes(hex)) }
    }

    @Test("The first dynamic index is valid once the table holds an entry, the next one is not")
    func dynamicIndexBounds() throws {
        var decoder = HPACKDecoder()
        _ = try decoder.decode(HPACKTestSupport.bytes("400161 0162"))
        #expect(try decoder.decode([0xBE]) == [HPACKHeaderField(name: "a", value: "b")])
        #expect(throws: HPACKError.indexOutOfRange(63)) { try decoder.decode([0xBF]) }
    }

    @Test("An integer beyond the bound is an error, as an index, a string length and a table size")
    func integerOverflow() {
        for hex in ["ffffffffffff0f", "407fffffffff0f", "3fffffffffff0f", "ff8080808080800001"] {
            var decoder = HPACKDecoder()
            #expect(throws: HPACKError.integerOverflow) { try decoder.decode(HPACKTestSupport.bytes(hex)) }
        }
    }

    @Test("A string longer than the block is truncated, not read past the end")
    func stringPastEnd() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.truncated) { try decoder.decode(HPACKTestSupport.bytes("4005616263")) }
        #expect(throws: HPACKError.truncated) { try decoder.decode(HPACKTestSupport.bytes("4001610a")) }
    }

    @Test("Bad Huffman padding and EOS inside a literal are errors")
    func huffmanErrors() {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.invalidHuffmanPadding) { try decoder.decode(HPACKTestSupport.bytes("4181ff")) }
        #expect(throws: HPACKError.invalidHuffmanPadding) { try decoder.decode(HPACKTestSupport.bytes("418100")) }
        #expect(throws: HPACKError.huffmanEndOfString) { try decoder.decode(HPACKTestSupport.bytes("4184ffffffff")) }
    }

    @Test("A size update above our SETTINGS_HEADER_TABLE_SIZE is an error; one at the limit is not")
    func sizeUpdateAboveLimit() throws {
        var decoder = HPACKDecoder(maxTableSize: 4096)
        #expect(throws: HPACKError.tableSizeAboveLimit(4097, limit: 4096)) {
            try decoder.decode(HPACKTestSupport.bytes("3fe21f"))
        }
        var fresh = HPACKDecoder(maxTableSize: 4096)
        #expect(
            try fresh.decode(HPACKTestSupport.bytes("3fe11f 82")) == [HPACKHeaderField(name: ":method", value: "GET")])
        #expect(fresh.dynamicTableCapacity == 4096)
    }

    @Test("A size update after a field of the block is an error; two at the start are not")
    func sizeUpdateMidBlock() throws {
        var decoder = HPACKDecoder()
        #expect(throws: HPACKError.tableSizeUpdateNotAtStart) { try decoder.decode([0x82, 0x20]) }
        var fresh = HPACKDecoder()
        _ = try fresh.decode(HPACKTestSupport.bytes("400161 0162"))
        #expect(try fresh.decode(HPACKTestSupport.bytes("20 3f e1 1f 82")).count == 1)
        #expect(fresh.dynamicTableFields.isEmpty)
        #expect(fresh.dynamicTableCapacity == 4096)
    }

    @Test("After we lower the limit below the table, the next block must open with a size update within it")
    func requiredSizeUpdate() throws {
        var decoder = HPACKDecoder()
        decoder.setMaxTableSizeLimit(100)
        #expect(throws: HPACKError.missingTableSizeUpdate) { try decoder.decode([0x82]) }

        var tooLarge = HPACKDecoder()
        tooLarge.setMaxTableSizeLimit(100)
        #expect(throws: HPACKError.tableSizeAboveLimit(4096, limit: 100)) {
            try tooLarge.decode(HPACKTestSupport.bytes("3fe11f 82"))
        }

        // Lowered to 0 and raised again: the update must still go down to 0 first.
        var bounced = HPACKDecoder()
        bounced.setMaxTableSizeLimit(0)
        bounced.setMaxTableSizeLimit(4096)
        #expect(throws: HPACKError.missingTableSizeUpdate) { try bounced.decode(HPACKTestSupport.bytes("3fe11f 82")) }
        var honoured = HPACKDecoder()
        honoured.setMaxTableSizeLimit(0)
        honoured.setMaxTableSizeLimit(4096)
        #expect(try honoured.decode(HPACKTestSupport.bytes("20 3fe11f 82")).count == 1)
        #expect(try honoured.decode([0x82]).count == 1)
    }

    @Test("A header list over SETTINGS_MAX_HEADER_LIST_SIZE is an error after the whole block, table still in step")
    func headerListTooLarge() throws {
        // Two fields of 32 + 1 + 1 bytes each: 68 bytes against a limit of 67.
        var decoder = HPACKDecoder(maxHeaderListSize: 67)
        #expect(throws: HPACKError.headerListTooLarge(limit: 67)) {
            try decoder.decode(HPACKTestSupport.bytes("400161 0162 400163 0164"))
        }
        // Both literals entered the table, so the next block's references still resolve.
        #expect(try decoder.decode([0xBE]) == [HPACKHeaderField(name: "c", value: "d")])
        #expect(try decoder.decode([0xBF]) == [HPACKHeaderField(name: "a", value: "b")])
        var exact = HPACKDecoder(maxHeaderListSize: 68)
        #expect(try exact.decode(HPACKTestSupport.bytes("400161 0162 400163 0164")).count == 2)
    }

    @Test("A compression bomb, one large entry referenced thousands of times, stops at the list limit")
    func compressionBomb() throws {
        var encoder = HPACKEncoder(indexing: .everything)
        let big = HPACKHeaderField(name: "x-big", value: String(repeating: "a", count: 3000))
        var decoder = HPACKDecoder(maxHeaderListSize: 64 * 1024)
        let block = encoder.encode([big])
        #expect(try decoder.decode(block) == [big])
        // 10,000 one-byte references: 30 MB of fields from 10 kB of block.
        let bomb = [UInt8](repeating: 0xBE, count: 10_000)
        #expect(throws: HPACKError.headerListTooLarge(limit: 64 * 1024)) { try decoder.decode(bomb) }
        #expect(try decoder.decode([0xBE]) == [big])
    }

    @Test("The table never grows past its capacity, however large the entries")
    func tableBounded() throws {
        var decoder = HPACKDecoder(maxTableSize: 256)
        var encoder = HPACKEncoder(maxTableSize: 256, preferredTableSize: 256, indexing: .everything)
        var random = SplitMix64(seed: 17)
        for _ in 0..<200 {
            let length = Int(random.next() % 300)
            let field = HPACKHeaderField(name: "x-\(random.next() % 8)", value: String(repeating: "v", count: length))
            _ = try decoder.decode(encoder.encode([field]))
            #expect(decoder.dynamicTableSize <= 256)
            #expect(decoder.dynamicTableFields.reduce(0) { $0 + $1.size } == decoder.dynamicTableSize)
        }
    }

    @Test("Random bytes never trap: every block decodes or fails with a typed error")
    func randomBytes() {
        var random = SplitMix64(seed: 99)
        var failures = 0
        for _ in 0..<5000 {
            let block = (0..<Int(random.next() % 48)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 1024)
            do {
                let fields = try decoder.decode(block)
                #expect(fields.reduce(0) { $0 + $1.size } <= 1024)
            } catch {
                failures += 1
            }
            #expect(decoder.dynamicTableSize <= 256)
        }
        #expect(failures > 0)
    }
}
