/// The last few Huffman-coded strings a decoder decoded, by their coded octets: a server sends the same coded values
/// in every response (nginx: `server`, `content-type`, `last-modified`, `etag`, and `date` for a second), so most
/// are found here instead of decoded again (the Huffman decoder was 4% of an HTTP/2 call's CPU: BENCHMARKS.md, "The
/// fast path by default"). Bounded: ``capacity`` strings of at most ``maxCodedLength`` octets each.
struct HuffmanMemo: Sendable {
    /// How many strings are kept; the oldest makes room.
    static let capacity = 8
    /// The longest coded string kept.
    static let maxCodedLength = 64

    /// The strings kept: their coded octets and what they decode to.
    private var entries: [(coded: [UInt8], decoded: [UInt8])] = []
    /// Where the next string goes once the memo is full.
    private var next = 0

    /// How many strings are kept (for the tests).
    var count: Int { entries.count }

    /// The decoded octets of `octets`, from the memo or decoded (and remembered when short enough).
    mutating func decode(_ octets: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
        guard octets.count <= Self.maxCodedLength else { return try HuffmanDecoding.decode(octets) }
        for entry in entries where entry.coded.count == octets.count && entry.coded.elementsEqual(octets) {
            return entry.decoded
        }
        let result = try HuffmanDecoding.decode(octets)
        if entries.count < Self.capacity {
            entries.append((Array(octets), result))
        } else {
            entries[next] = (Array(octets), result)
            next = (next + 1) % Self.capacity
        }
        return result
    }
}
