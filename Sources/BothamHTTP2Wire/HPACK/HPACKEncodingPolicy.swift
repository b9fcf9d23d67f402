/// When the encoder Huffman-codes a string literal.
package enum HPACKHuffmanPolicy: Sendable {
    /// Never: every string goes raw (as in RFC 7541 Appendix C.3 and C.5).
    case never
    /// When the Huffman form is not longer than the raw one; a tie goes to Huffman, as in Appendix C.6.2.
    case unlessLonger
}

/// Which fields the encoder adds to the dynamic table (a sensitive field never is, whatever the policy).
package enum HPACKIndexingPolicy: Sendable {
    /// Every field that fits the table, as the encoder of RFC 7541 Appendix C does.
    case everything
    /// Fields likely to repeat: not those whose values change from request to request (``variableNames``), and
    /// none that would take more than three quarters of the table (it would evict everything else).
    case sensible

    /// The names ``sensible`` does not index: their values rarely repeat on one connection.
    package static let variableNames = HPACKNameSet(utf8: [
        ":path", "content-length", "content-range", "range", "etag", "location", "set-cookie", "if-modified-since",
        "if-unmodified-since", "if-none-match", "if-match", "if-range", "last-modified",
    ])
}
