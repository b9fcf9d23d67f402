import Testing

@testable import BothamHTTP2Wire

/// RFC 7541 Appendix C, every example: what our encoder writes, byte for byte, what our decoder reads, and the
/// dynamic table of both after every block.
@Suite("HPACK: RFC 7541 Appendix C", .timeLimit(.minutes(1)))
struct HPACKAppendixCTests {
    /// One chain of Appendix C: blocks encoded in turn on one connection, each with the fields it carries and the
    /// dynamic table after it (newest first, `name: value (size)`).
    struct Chain: Sendable, CustomTestStringConvertible {
        var section: String
        var tableSize: Int
        var huffman: HPACKHuffmanPolicy
        var indexing: HPACKIndexingPolicy
        var steps: [(hex: String, fields: [(String, String)], table: [String])]
        var testDescription: String { section }
    }

    static let request1 = [(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com")]
    static let request2 = request1 + [("cache-control", "no-cache")]
    static let request3 = [
        (":method", "GET"), (":scheme", "https"), (":path", "/index.html"), (":authority", "www.example.com"),
        ("custom-key", "custom-value"),
    ]
    static let requestTables = [
        [":authority: www.example.com (57)"],
        ["cache-control: no-cache (53)", ":authority: www.example.com (57)"],
        ["custom-key: custom-value (54)", "cache-control: no-cache (53)", ":authority: www.example.com (57)"],
    ]
    static let date1 = "Mon, 21 Oct 2013 20:13:21 GMT"
    static let date2 = "Mon, 21 Oct 2013 20:13:22 GMT"
    static let cookie = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"
    static let response1 = [
        (":status", "302"), ("cache-control", "private"), ("date", date1), ("location", "https://www.example.com"),
    ]
    static let response2 = [(":status", "307")] + response1.dropFirst()
    static let response3 = [
        (":status", "200"), ("cache-control", "private"), ("date", date2), ("location", "https://www.example.com"),
        ("content-encoding", "gzip"), ("set-cookie", cookie),
    ]
    static let responseTables = [
        [
            "location: https://www.example.com (63)", "date: \(date1) (65)", "cache-control: private (52)",
            ":status: 302 (42)",
        ],
        [
            ":status: 307 (42)", "location: https://www.example.com (63)", "date: \(date1) (65)",
            "cache-control: private (52)",
        ],
        ["set-cookie: \(cookie) (98)", "content-encoding: gzip (52)", "date: \(date2) (65)"],
    ]

    static let chains: [Chain] = [
        Chain(
            section: "C.3 requests without Huffman", tableSize: 4096, huffman: .never, indexing: .sensible,
            steps: [
                ("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", request1, requestTables[0]),
                ("8286 84be 5808 6e6f 2d63 6163 6865", request2, requestTables[1]),
                (
                    "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65", request3,
                    requestTables[2]
                ),
            ]),
        Chain(
            section: "C.4 requests with Huffman", tableSize: 4096, huffman: .unlessLonger, indexing: .sensible,
            steps: [
                ("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", request1, requestTables[0]),
                ("8286 84be 5886 a8eb 1064 9cbf", request2, requestTables[1]),
                ("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", request3, requestTables[2]),
            ]),
        Chain(
            section: "C.5 responses without Huffman, evicting at 256 bytes", tableSize: 256, huffman: .never,
            indexing: .everything,
            steps: [
                (
                    """
                    4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32
                    3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d
                    """, response1, responseTables[0]
                ),
                ("4803 3330 37c1 c0bf", response2, responseTables[1]),
                (
                    """
                    88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970
                    7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61
                    6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31
                    """, response3, responseTables[2]
                ),
            ]),
        Chain(
            section: "C.6 responses with Huffman, evicting at 256 bytes", tableSize: 256, huffman: .unlessLonger,
            indexing: .everything,
            steps: [
                (
                    """
                    4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad
                    1718 63c7 8f0b 97c8 e9ae 82ae 43d3
                    """, response1, responseTables[0]
                ),
                ("4883 640e ffc1 c0bf", response2, responseTables[1]),
                (
                    """
                    88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2
                    e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07
                    """, response3, responseTables[2]
                ),
            ]),
    ]

    @Test(
        "The encoder writes every block of the chain byte for byte, with the RFC's table after each", arguments: chains)
    func encoderMatchesTheRFC(chain: Chain) {
        var encoder = HPACKEncoder(
            maxTableSize: chain.tableSize, preferredTableSize: chain.tableSize, huffman: chain.huffman,
            indexing: chain.indexing)
        for step in chain.steps {
            let block = encoder.encode(HPACKTestSupport.fields(step.fields))
            #expect(HPACKTestSupport.hex(block) == HPACKTestSupport.hex(HPACKTestSupport.bytes(step.hex)))
            #expect(HPACKTestSupport.entries(encoder.dynamicTableFields) == step.table)
            #expect(encoder.dynamicTableSize == tableSize(step.table))
        }
    }

    @Test("The decoder reads every block of the chain into the RFC's fields and table", arguments: chains)
    func decoderMatchesTheRFC(chain: Chain) throws {
        var decoder = HPACKDecoder(maxTableSize: chain.tableSize)
        for step in chain.steps {
            let fields = try decoder.decode(HPACKTestSupport.bytes(step.hex))
            #expect(fields == HPACKTestSupport.fields(step.fields))
            #expect(HPACKTestSupport.entries(decoder.dynamicTableFields) == step.table)
            #expect(decoder.dynamicTableSize == tableSize(step.table))
        }
    }

    @Test("C.2.1: a literal with incremental indexing and a literal name enters the table")
    func literalWithIndexing() throws {
        let hex = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(HPACKTestSupport.bytes(hex)) == [field("custom-key", "custom-header")])
        #expect(HPACKTestSupport.entries(decoder.dynamicTableFields) == ["custom-key: custom-header (55)"])
        var encoder = HPACKEncoder(huffman: .never)
        #expect(encoder.encode([field("custom-key", "custom-header")]) == HPACKTestSupport.bytes(hex))
        #expect(encoder.dynamicTableSize == 55)
    }

    @Test("C.2.2: a literal without indexing, with an indexed name, leaves the table empty")
    func literalWithoutIndexing() throws {
        let hex = "040c 2f73 616d 706c 652f 7061 7468"
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(HPACKTestSupport.bytes(hex)) == [field(":path", "/sample/path")])
        #expect(decoder.dynamicTableFields.isEmpty)
        // `:path` is one of the names the sensible policy does not index.
        var encoder = HPACKEncoder(huffman: .never)
        #expect(encoder.encode([field(":path", "/sample/path")]) == HPACKTestSupport.bytes(hex))
        #expect(encoder.dynamicTableFields.isEmpty)
    }

    @Test("C.2.3: a never-indexed literal is decoded as such and leaves the table empty")
    func literalNeverIndexed() throws {
        let hex = "1008 7061 7373 776f 7264 0673 6563 7265 74"
        var decoder = HPACKDecoder()
        #expect(try decoder.decode(HPACKTestSupport.bytes(hex)) == [field("password", "secret", neverIndexed: true)])
        #expect(decoder.dynamicTableFields.isEmpty)
        var encoder = HPACKEncoder(sensitiveNames: ["Password"], huffman: .never)
        #expect(encoder.encode([field("password", "secret")]) == HPACKTestSupport.bytes(hex))
        #expect(encoder.dynamicTableFields.isEmpty)
    }

    @Test("C.2.4: an indexed field from the static table")
    func indexedField() throws {
        var decoder = HPACKDecoder()
        #expect(try decoder.decode([0x82]) == [field(":method", "GET")])
        #expect(decoder.dynamicTableFields.isEmpty)
        var encoder = HPACKEncoder()
        #expect(encoder.encode([field(":method", "GET")]) == [0x82])
    }

    private func field(_ name: String, _ value: String, neverIndexed: Bool = false) -> HPACKHeaderField {
        HPACKHeaderField(name: name, value: value, neverIndexed: neverIndexed)
    }

    private func tableSize(_ table: [String]) -> Int {
        table.reduce(0) { total, entry in
            let size = entry.split(separator: "(").last.map { $0.dropLast() }.flatMap { Int($0) }
            return total + (size ?? 0)
        }
    }
}
