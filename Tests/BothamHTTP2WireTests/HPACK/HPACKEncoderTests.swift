import Testing

@testable import BothamHTTP2Wire

@Suite("HPACK: the encoder's choices", .timeLimit(.minutes(1)))
struct HPACKEncoderTests {
    /// The representation a block's first field uses, from its first byte (RFC 7541 §6).
    enum Representation: Equatable {
        case indexed
        case incremental
        case withoutIndexing
        case neverIndexed
        case sizeUpdate

        init(_ byte: UInt8) {
            if byte & 0x80 != 0 {
                self = .indexed
            } else if byte & 0x40 != 0 {
                self = .incremental
            } else if byte & 0x20 != 0 {
                self = .sizeUpdate
            } else if byte & 0x10 != 0 {
                self = .neverIndexed
            } else {
                self = .withoutIndexing
            }
        }
    }

    @Test(
        "Authorization, Cookie and Proxy-Authorization are never indexed, in any case, however often they repeat",
        arguments: ["authorization", "Cookie", "PROXY-AUTHORIZATION"])
    func defaultSensitiveNames(name: String) throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let field = HPACKHeaderField(name: name, value: "secret-value")
        for _ in 0..<3 {
            let block = encoder.encode([field])
            #expect(Representation(try #require(block.first)) == .neverIndexed)
            let decoded = try decoder.decode(block)
            #expect(decoded == [HPACKHeaderField(name: name.lowercased(), value: "secret-value", neverIndexed: true)])
        }
        #expect(encoder.dynamicTableFields.isEmpty)
        #expect(decoder.dynamicTableFields.isEmpty)
    }

    @Test("The caller's names (a Redactor's) and fields marked never-indexed go never-indexed too")
    func callerSensitiveNames() throws {
        var encoder = HPACKEncoder(sensitiveNames: ["X-Api-Key"])
        var decoder = HPACKDecoder()
        let block = encoder.encode([
            HPACKHeaderField(name: "x-api-key", value: "k1"),
            HPACKHeaderField(name: "x-session", value: "s1", neverIndexed: true),
            HPACKHeaderField(name: "x-other", value: "o1"),
        ])
        let decoded = try decoder.decode(block)
        #expect(decoded.map(\.neverIndexed) == [true, true, false])
        #expect(HPACKTestSupport.entries(encoder.dynamicTableFields) == ["x-other: o1 (41)"])
        #expect(encoder.dynamicTableFields == decoder.dynamicTableFields)
    }

    @Test("A sensitive field is never sent by index, even when its name and value are in a table")
    func sensitiveNeverByValue() throws {
        var encoder = HPACKEncoder(sensitiveNames: [":method"], huffman: .never)
        let block = encoder.encode([HPACKHeaderField(name: ":method", value: "GET")])
        // Never-indexed literal with the static name index 2, then the raw value "GET".
        #expect(block == [0x12, 0x03, 0x47, 0x45, 0x54])
    }

    @Test("Names go out in lower case and find their static entries")
    func lowercasesNames() throws {
        var encoder = HPACKEncoder()
        var decoder = HPACKDecoder()
        let block = encoder.encode([
            HPACKHeaderField(name: "Content-Type", value: "application/json"),
            HPACKHeaderField(name: "ACCEPT-ENCODING", value: "gzip, deflate"),
        ])
        // content-type is static name 31 (0x40 | 31), accept-encoding: gzip, deflate is static entry 16.
        #expect(Array(block.prefix(1)) == [0x5F])
        #expect(block.last == 0x90)
        #expect(
            try decoder.decode(block)
                == HPACKTestSupport.fields([("content-type", "application/json"), ("accept-encoding", "gzip, deflate")])
        )
    }

    @Test("The sensible policy indexes repeating fields but not paths, lengths or entries too big for the table")
    func sensibleIndexing() throws {
        var encoder = HPACKEncoder(maxTableSize: 256, preferredTableSize: 256)
        let fields = HPACKTestSupport.fields([
            (":path", "/users?id=42"), ("content-length", "12"), ("user-agent", "botham/1"),
            ("x-large", String(repeating: "v", count: 200)),
        ])
        let block = encoder.encode(fields)
        #expect(HPACKTestSupport.entries(encoder.dynamicTableFields) == ["user-agent: botham/1 (50)"])
        // The second time, user-agent is one byte.
        let again = encoder.encode([fields[2]])
        #expect(again == [0xBE])
        var decoder = HPACKDecoder(maxTableSize: 256)
        #expect(try decoder.decode(block) == fields)

        var everything = HPACKEncoder(maxTableSize: 256, preferredTableSize: 256, indexing: .everything)
        _ = everything.encode(fields)
        #expect(everything.dynamicTableFields.map(\.description).first?.hasPrefix("x-large") == true)
    }

    @Test("Huffman is used when it is not longer, raw strings otherwise, and never under .never")
    func huffmanChoice() throws {
        var encoder = HPACKEncoder(indexing: .everything)
        // "no-cache" is 6 bytes in Huffman (RFC 7541 C.4.2): H flag set.
        let short = encoder.encode([HPACKHeaderField(name: "cache-control", value: "no-cache")])
        #expect(short == [0x58, 0x86, 0xA8, 0xEB, 0x10, 0x64, 0x9C, 0xBF])
        // Control bytes have 20+-bit codes: raw is shorter.
        let raw = encoder.encode([HPACKHeaderField(name: "x-binary", value: "\u{1}\u{2}\u{3}")])
        #expect(raw.suffix(4) == [0x03, 0x01, 0x02, 0x03])
        var never = HPACKEncoder(huffman: .never)
        let plain = never.encode([HPACKHeaderField(name: "cache-control", value: "no-cache")])
        #expect(plain == [0x58, 0x08] + Array("no-cache".utf8))
    }

    @Test("A new peer table size goes out at the start of the next block only, the lowest value first")
    func pendingSizeUpdates() throws {
        var encoder = HPACKEncoder(indexing: .everything)
        var decoder = HPACKDecoder()
        _ = try decoder.decode(encoder.encode(HPACKTestSupport.fields([("x-a", "1"), ("x-b", "2")])))

        encoder.setPeerMaxTableSize(0)
        encoder.setPeerMaxTableSize(100)
        #expect(encoder.dynamicTableFields.isEmpty)
        let block = encoder.encode([HPACKHeaderField(name: "x-c", value: "3")])
        // 0, then 100 (31 + 69), then the field.
        #expect(Array(block.prefix(3)) == [0x20, 0x3F, 0x45])
        decoder.setMaxTableSizeLimit(100)
        #expect(try decoder.decode(block) == [HPACKHeaderField(name: "x-c", value: "3")])
        #expect(decoder.dynamicTableCapacity == 100)
        #expect(encoder.dynamicTableFields == decoder.dynamicTableFields)

        let next = encoder.encode([HPACKHeaderField(name: "x-c", value: "3")])
        #expect(next == [0xBE])
    }

    @Test("An unchanged peer table size announces nothing; a smaller preferred size is announced in the first block")
    func initialSizeUpdate() throws {
        var same = HPACKEncoder()
        same.setPeerMaxTableSize(4096)
        #expect(same.encode([HPACKHeaderField(name: ":method", value: "GET")]) == [0x82])

        var small = HPACKEncoder(maxTableSize: 4096, preferredTableSize: 512)
        let block = small.encode([HPACKHeaderField(name: ":method", value: "GET")])
        #expect(block == [0x3F, 0xE1, 0x03, 0x82])
        var decoder = HPACKDecoder()
        _ = try decoder.decode(block)
        #expect(decoder.dynamicTableCapacity == 512)
        // A peer allowing more does not make the encoder use more than it prefers.
        small.setPeerMaxTableSize(65_536)
        #expect(small.dynamicTableCapacity == 512)
        #expect(small.encode([HPACKHeaderField(name: ":method", value: "GET")]) == [0x82])
    }
}
