import Testing

@testable import BothamWebSocketWire

/// The incremental UTF-8 validator agrees with the standard library's decoding on any bytes, whole or split
/// anywhere, including long ASCII runs it skips eight bytes at a time.
@Suite("UTF-8 validator: agrees with the standard library at any split", .timeLimit(.minutes(1)))
struct UTF8ValidatorTests {
    static func standardLibrarySaysValid(_ bytes: [UInt8]) -> Bool {
        Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
    }

    @Test("2,000 seeded byte strings mixing ASCII runs and multi-byte forms: same verdict whole and at every split")
    func agreesWithStandardLibrary() {
        var generator = TestGenerator(seed: 6455)
        let pieces: [[UInt8]] = [
            Array("plain ascii run ".utf8), Array("é".utf8), Array("✓".utf8), Array("𝄞".utf8), [0xED, 0xA0, 0x80],
            [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80], [0xFF], [0x80], [0xF0, 0x9F], [0xEF, 0xBF, 0xBD],
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 8) {
                let valid = generator.next() % 4 != 0
                bytes += pieces[Int(generator.next() % UInt64(valid ? 4 : pieces.count))]
            }
            let expected = Self.standardLibrarySaysValid(bytes)
            #expect(UTF8Validator.isValid(bytes) == expected, "\(bytes)")
            for split in 0...bytes.count {
                var validator = UTF8Validator()
                let valid = validator.validate(bytes[..<split]) && validator.validate(bytes[split...])
                #expect((valid && validator.isAtBoundary) == expected, "\(bytes) split at \(split)")
            }
        }
    }

    @Test("an invalid byte after a long ASCII run is found at any alignment")
    func invalidAfterASCIIRun() {
        for prefix in 0..<20 {
            let bytes = [UInt8](repeating: 0x61, count: prefix) + [0xFF] + [UInt8](repeating: 0x62, count: 9)
            #expect(!UTF8Validator.isValid(bytes), "after \(prefix) ASCII bytes")
            let valid = [UInt8](repeating: 0x61, count: prefix) + Array("ü".utf8) + [UInt8](repeating: 0x62, count: 9)
            #expect(UTF8Validator.isValid(valid), "ü after \(prefix) ASCII bytes")
        }
    }
}
