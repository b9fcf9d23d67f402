import Testing

@testable import BothamHTTP2Wire

/// Blocks written by an independent encoder (Python's `hpack`, see scripts/hpack-vectors.py): Huffman and raw
/// strings, never-indexed fields, table size updates, evictions.
@Suite("HPACK: blocks from another implementation", .timeLimit(.minutes(1)))
struct HPACKPythonVectorTests {
    @Test("Every block of every connection decodes to the fields that encoder was given")
    func decodesEveryBlock() throws {
        #expect(HPACKPythonVectors.chains.count == 24)
        var blocks = 0
        for chain in HPACKPythonVectors.chains {
            var decoder = HPACKDecoder(maxHeaderListSize: 1 << 20)
            for block in chain {
                let fields = try decoder.decode(HPACKTestSupport.bytes(block.hex))
                let expected = block.fields.map {
                    HPACKHeaderField(
                        name: HPACKTestSupport.bytes($0.name), value: HPACKTestSupport.bytes($0.value),
                        neverIndexed: $0.neverIndexed)
                }
                #expect(fields == expected)
                #expect(decoder.dynamicTableSize <= decoder.dynamicTableCapacity)
                blocks += 1
            }
        }
        #expect(blocks == 107)
    }

    @Test("Our encoder's blocks for the same fields decode to the same fields")
    func reencodes() throws {
        for chain in HPACKPythonVectors.chains {
            var encoder = HPACKEncoder()
            var decoder = HPACKDecoder(maxHeaderListSize: 1 << 20)
            for block in chain {
                let fields = block.fields.map {
                    HPACKHeaderField(
                        name: HPACKTestSupport.bytes($0.name), value: HPACKTestSupport.bytes($0.value),
                        neverIndexed: $0.neverIndexed)
                }
                let decoded = try decoder.decode(encoder.encode(fields))
                #expect(decoded.map { [$0.name, $0.value] } == fields.map { [$0.name, $0.value] })
            }
        }
    }
}
