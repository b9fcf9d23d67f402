import BothamTestSupport
import Testing

@testable import BothamHTTP2Wire

@Suite("HPACK: integers (RFC 7541 §5.1)", .timeLimit(.minutes(1)))
struct HPACKIntegerTests {
    @Test(
        "C.1: the RFC's three integers encode and decode byte for byte",
        arguments: [
            (10, 5, [UInt8]([0x0A])), (1337, 5, [0x1F, 0x9A, 0x0A]), (42, 8, [0x2A]),
        ])
    func appendixC1(value: Int, prefixBits: Int, bytes: [UInt8]) throws {
        var encoded: [UInt8] = []
        HPACKInteger.encode(value, prefixBits: prefixBits, into: &encoded)
        #expect(encoded == bytes)
        var position = 0
        #expect(try HPACKInteger.decode(bytes, at: &position, prefixBits: prefixBits) == value)
        #expect(position == bytes.count)
    }

    @Test("Every prefix size round-trips values up to the bound, leaving the flag bits alone")
    func roundTrip() throws {
        var random = SplitMix64(seed: 0x7541)
        for prefixBits in 1...8 {
            let flags = UInt8(truncatingIfNeeded: 0xFF << prefixBits)
            let edges = [0, 1, (1 << prefixBits) - 2, (1 << prefixBits) - 1, 1 << prefixBits, 127, 128, 16_383]
            let values = edges + [HPACKInteger.maximum] + (0..<200).map { _ in Int(random.next() % UInt64(1 << 32)) }
            for value in values {
                var encoded: [UInt8] = [0xEE]
                HPACKInteger.encode(value, prefixBits: prefixBits, flags: flags, into: &encoded)
                #expect(encoded[1] & flags == flags)
                var position = 1
                #expect(try HPACKInteger.decode(encoded, at: &position, prefixBits: prefixBits) == value)
                #expect(position == encoded.count)
            }
        }
    }

    @Test(
        "A truncated integer is an error, not a guess",
        arguments: [[UInt8](), [0x1F], [0x1F, 0x9A], [0x1F, 0xFF, 0xFF]])
    func truncated(bytes: [UInt8]) {
        var position = 0
        #expect(throws: HPACKError.truncated) { try HPACKInteger.decode(bytes, at: &position, prefixBits: 5) }
    }

    @Test(
        "An integer above the bound, or with more continuation bytes than the bound needs, is rejected",
        arguments: [
            // maximum + 1 with a 5-bit prefix
            [UInt8]([0x1F, 0xE1, 0xFF, 0xFF, 0xFF, 0x0F]),
            // 2^63 and more: would overflow a 64-bit Int
            [0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
            // six continuation bytes of zeros: value 31, but longer than any bounded integer
            [0x1F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
        ])
    func overflow(bytes: [UInt8]) {
        var position = 0
        #expect(throws: HPACKError.integerOverflow) { try HPACKInteger.decode(bytes, at: &position, prefixBits: 5) }
    }

    @Test("The bound itself still decodes")
    func boundDecodes() throws {
        var encoded: [UInt8] = []
        HPACKInteger.encode(HPACKInteger.maximum, prefixBits: 5, into: &encoded)
        #expect(encoded == [0x1F, 0xE0, 0xFF, 0xFF, 0xFF, 0x0F])
        var position = 0
        #expect(try HPACKInteger.decode(encoded, at: &position, prefixBits: 5) == HPACKInteger.maximum)
    }
}
