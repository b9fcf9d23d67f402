/// The bounds an ``HTTPResponseParser`` enforces; exceeding them fails the response instead of growing memory.
struct HTTPParserLimits: Sendable {
    /// The most bytes of status line and header fields (and, separately, of trailer fields).
    var maxHeadBytes: Int
    /// The most body bytes as framed on the wire.
    var maxBodyBytes: Int
    /// The longest chunk-size line.
    var maxChunkLineBytes = 1024
}
