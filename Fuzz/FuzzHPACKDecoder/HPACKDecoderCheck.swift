import BothamHTTP2Wire
import FuzzSupport

/// Properties of the HPACK decoder for any header blocks a server could send on one connection. The first input
/// byte picks our SETTINGS (table size and header list limits); the rest is read as blocks, each a length byte
/// and that many bytes, decoded in turn by one decoder.
///
/// - it never traps, hangs or reads past a block; a bad block is an `HPACKError`;
/// - the fields of a decoded block take at most the header list limit (name + value + 32 each), and the table
///   at most its capacity, which is at most our limit;
/// - after `headerListTooLarge` the decoder goes on (it read the whole block); after any other error the
///   connection would close, so the run stops;
/// - what it decodes, our encoder encodes and a second decoder reads back the same (names in lower case).
enum HPACKDecoderCheck {
    static let tableLimits = [0, 64, 256, 4096]
    static let listLimits = [128, 1024, 16 * 1024, 64 * 1024]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let settings = input.byte()
        let tableLimit = tableLimits[Int(settings & 0x03)]
        let listLimit = listLimits[Int((settings >> 2) & 0x03)]
        var decoder = HPACKDecoder(maxTableSize: tableLimit, maxHeaderListSize: listLimit)
        var encoder = HPACKEncoder()
        var mirror = HPACKDecoder(maxHeaderListSize: Int.max)
        while !input.isAtEnd {
            let block = input.chunk(maxLength: 255)
            let fields: [HPACKHeaderField]
            do throws(HPACKError) {
                fields = try decoder.decode(block)
            } catch .headerListTooLarge(let limit) {
                fuzzExpect(limit == listLimit, "limit \(limit), set \(listLimit)")
                continue
            } catch {
                return
            }
            fuzzExpect(fields.reduce(0) { $0 + $1.size } <= listLimit, "fields over \(listLimit) bytes")
            fuzzExpect(decoder.dynamicTableSize <= decoder.dynamicTableCapacity, "table over its capacity")
            fuzzExpect(decoder.dynamicTableCapacity <= tableLimit, "capacity over \(tableLimit)")
            fuzzExpect(
                decoder.dynamicTableFields.reduce(0) { $0 + $1.size } == decoder.dynamicTableSize, "table size")
            do {
                let again = try mirror.decode(encoder.encode(fields))
                fuzzExpect(
                    again.map { [$0.name, $0.value] } == fields.map { [lowercased($0.name), $0.value] },
                    "round trip of \(fields) gave \(again)")
            } catch {
                fuzzExpect(false, "our own block failed to decode: \(error)")
            }
        }
    }

    private static func lowercased(_ name: [UInt8]) -> [UInt8] {
        name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}
