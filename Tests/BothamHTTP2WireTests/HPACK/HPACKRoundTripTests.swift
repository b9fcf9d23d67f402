import BothamTestSupport
import Testing

@testable import BothamHTTP2Wire

/// Seeded random header lists through our encoder and decoder on one connection, with every policy and with the
/// table size changing between blocks: the fields come back as sent (names lower-cased, sensitive ones flagged)
/// and both tables stay identical.
@Suite("HPACK: random round trips", .timeLimit(.minutes(1)))
struct HPACKRoundTripTests {
    static let names = [
        ":method", ":path", ":authority", ":scheme", "accept", "Accept-Encoding", "content-type", "content-length",
        "user-agent", "authorization", "cookie", "x-request-id", "X-Trace", "etag", "if-none-match",
    ]
    static let values = ["GET", "POST", "/", "/index.html", "https", "gzip, deflate", "application/json", ""]
    static let tableSizes = [0, 32, 100, 256, 1024, 4096]

    @Test(
        "Random lists round-trip through encoder and decoder with identical tables",
        arguments: [
            (HPACKHuffmanPolicy.never, HPACKIndexingPolicy.sensible),
            (.unlessLonger, .sensible), (.never, .everything), (.unlessLonger, .everything),
        ])
    func roundTrip(huffman: HPACKHuffmanPolicy, indexing: HPACKIndexingPolicy) throws {
        var random = SplitMix64(seed: 0x4850_4143_4B00 | UInt64(huffman == .never ? 1 : 2) << 4)
        for _ in 0..<40 {
            var encoder = HPACKEncoder(sensitiveNames: ["x-trace"], huffman: huffman, indexing: indexing)
            var decoder = HPACKDecoder(maxHeaderListSize: 1 << 20)
            for _ in 0..<25 {
                if random.next() % 8 == 0 {
                    let size = Self.tableSizes[Int(random.next() % UInt64(Self.tableSizes.count))]
                    // Our SETTINGS value reaches the decoder and, as the peer's, the encoder.
                    decoder.setMaxTableSizeLimit(size)
                    encoder.setPeerMaxTableSize(size)
                }
                let fields = (0..<Int(random.next() % 16)).map { _ in field(&random) }
                let block = encoder.encode(fields)
                let decoded = try decoder.decode(block)
                #expect(decoded == fields.map(expected))
                #expect(encoder.dynamicTableFields == decoder.dynamicTableFields)
                #expect(encoder.dynamicTableSize == decoder.dynamicTableSize)
                #expect(decoder.dynamicTableSize <= decoder.dynamicTableCapacity)
            }
        }
    }

    private func field(_ random: inout SplitMix64) -> HPACKHeaderField {
        let name =
            random.next() % 4 == 0
            ? "x-\(random.next() % 1000)" : Self.names[Int(random.next() % UInt64(Self.names.count))]
        let value: [UInt8]
        switch random.next() % 3 {
        case 0: value = Array(Self.values[Int(random.next() % UInt64(Self.values.count))].utf8)
        case 1: value = (0..<Int(random.next() % 40)).map { _ in UInt8(0x20 + random.next() % 95) }
        default: value = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        return HPACKHeaderField(name: Array(name.utf8), value: value, neverIndexed: random.next() % 20 == 0)
    }

    private func expected(_ field: HPACKHeaderField) -> HPACKHeaderField {
        let name = field.name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        let sensitive =
            field.neverIndexed
            || HPACKEncoder.defaultSensitiveNames.union(["x-trace"]).contains(
                String(decoding: name, as: UTF8.self))
        return HPACKHeaderField(name: name, value: field.value, neverIndexed: sensitive)
    }
}
