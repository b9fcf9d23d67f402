import BothamHTTP2Wire

/// Why ``HTTP2ClientConnection/openStream(fields:endStream:)`` opened no stream. Each one means: use another
/// connection (or wait for a stream of this one to end, for ``tooManyStreams``); nothing was sent.
package enum HTTP2StreamOpenError: Error, Hashable, Sendable {
    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS are all in use.
    case tooManyStreams(limit: Int)
    /// The server sent GOAWAY: it takes no new streams.
    case goingAway
    /// The connection ended.
    case closed
    /// Every client stream identifier has been used (2^30 streams): the connection must be replaced.
    case streamIDsExhausted
    /// The request's fields take `size` octets (HPACK's accounting), more than the server's
    /// SETTINGS_MAX_HEADER_LIST_SIZE of `limit`: it would refuse them (RFC 9113 §6.5.2), on any connection.
    case fieldsTooLarge(size: Int, limit: Int)
}
