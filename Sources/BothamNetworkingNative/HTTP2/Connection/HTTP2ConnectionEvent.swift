import BothamHTTP2Wire

/// What the server's frames meant, in the order they arrived: what ``HTTP2ClientConnection/receive(_:)`` returns.
package enum HTTP2ConnectionEvent: Hashable, Sendable {
    /// The server's first SETTINGS arrived (and were acknowledged): the connection is established.
    case ready
    /// A 1xx informational response (never 101, which HTTP/2 forbids) with its fields; the final one follows.
    case informational(HTTP2StreamID, status: Int, fields: [HPACKHeaderField])
    /// The final response head: status and fields, pseudo-fields removed.
    case head(HTTP2StreamID, status: Int, fields: [HPACKHeaderField])
    /// Body octets of a stream. Tell the connection when they are consumed
    /// (``HTTP2ClientConnection/consumed(_:on:)``): that is what lets the server send more.
    case data(HTTP2StreamID, ArraySlice<UInt8>)
    /// The trailer fields that end a stream (``end(_:)`` follows).
    case trailers(HTTP2StreamID, fields: [HPACKHeaderField])
    /// The server ended the stream's response: the whole body has arrived. A stream whose request body is still
    /// being sent stays open (and counts against the server's stream limit) until the body ends or the owner
    /// cancels it, with NO_ERROR when the response is all it needed (RFC 9113 §8.1).
    case end(HTTP2StreamID)
    /// The stream ended without a complete response; it is gone from the connection.
    case failed(HTTP2StreamID, HTTP2StreamFailure)
    /// A send window grew (a WINDOW_UPDATE, or SETTINGS with a larger initial window): request bodies waiting for
    /// flow control may go on.
    case writable
    /// The answer to our PING with this payload.
    case pingAcknowledged(UInt64)
    /// The server is closing the connection: streams up to `lastStreamID` may still complete; those above it were
    /// never processed and are reported ``failed(_:_:)`` with ``HTTP2StreamFailure/refused`` right before this.
    case goingAway(lastStreamID: HTTP2StreamID, code: HTTP2ErrorCode, debug: String)
    /// The connection ended with an error (we sent GOAWAY with its code, or the server's frames could not be read);
    /// every open stream was reported failed right before this. Nothing more comes.
    case closed(HTTP2ConnectionFailure)
}

/// Why a stream ended without a complete response.
package enum HTTP2StreamFailure: Hashable, Sendable {
    /// The server never processed the request (REFUSED_STREAM, or above the last stream of its GOAWAY): safe to
    /// send again on another connection whatever the method (RFC 9113 §8.7).
    case refused
    /// The server reset the stream with this code.
    case reset(HTTP2ErrorCode)
    /// The response broke the protocol (a malformed field section, DATA before HEADERS, a body longer or shorter
    /// than its `content-length`, …): we reset the stream with the code.
    case malformed(HTTP2ErrorCode, String)
    /// The response's field section was over our SETTINGS_MAX_HEADER_LIST_SIZE of `limit` octets: we reset the
    /// stream (the response is too large, as an HTTP/1.1 head over `maxHeaderBytes` is).
    case headTooLarge(limit: Int)
    /// The connection ended under it.
    case connectionClosed(HTTP2ConnectionFailure)
}

/// Why a whole connection ended.
package enum HTTP2ConnectionFailure: Hashable, Sendable {
    /// The server broke the protocol: we sent GOAWAY with this code.
    case protocolViolation(HTTP2ErrorCode, String)
    /// A field block was over the `limit` octets we buffer: we sent GOAWAY with ENHANCE_YOUR_CALM (the response
    /// is too large, as an HTTP/1.1 head over `maxHeaderBytes` is).
    case headTooLarge(limit: Int)
    /// The server sent GOAWAY with an error code and the connection has no stream left to finish.
    case goAway(HTTP2ErrorCode, String)
}
