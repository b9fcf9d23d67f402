/// Why a header block could not be decoded (RFC 7541). The HTTP/2 connection maps every case to a
/// `COMPRESSION_ERROR` connection error (RFC 9113 §4.3), except ``headerListTooLarge``: the decoder finishes the
/// block before it reports that one, so its table stays in step and only the stream has to go.
package enum HPACKError: Error, Equatable, Sendable {
    /// The block ended inside an integer, a string or a representation.
    case truncated
    /// An integer does not fit the decoder's bound (``HPACKInteger/maximum``), or its encoding is longer than any
    /// such integer needs.
    case integerOverflow
    /// A Huffman string with padding longer than 7 bits or padding that is not all ones (RFC 7541 §5.2).
    case invalidHuffmanPadding
    /// A Huffman string that contains the end-of-string symbol (RFC 7541 §5.2).
    case huffmanEndOfString
    /// An indexed representation or an indexed name with index 0 (RFC 7541 §6.1, §6.2).
    case zeroIndex
    /// An index past the end of the static and dynamic tables together (RFC 7541 §2.3.3).
    case indexOutOfRange(Int)
    /// A dynamic table size update above the limit our SETTINGS allow (RFC 7541 §6.3).
    case tableSizeAboveLimit(Int, limit: Int)
    /// A dynamic table size update after the first field of a block (RFC 7541 §4.2).
    case tableSizeUpdateNotAtStart
    /// The block lacks the size update our lowered limit requires at its start (RFC 7541 §4.2).
    case missingTableSizeUpdate
    /// The decoded fields add up to more than the limit (name + value + 32 per field, RFC 9113 §6.5.2).
    case headerListTooLarge(limit: Int)
}
