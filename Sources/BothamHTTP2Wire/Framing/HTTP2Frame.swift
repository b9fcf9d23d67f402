/// One HTTP/2 frame (RFC 9113 §4.1, §6): the stream it belongs to and what it carries.
///
/// As the decoder delivers it, a frame's padding is gone (only its length is kept, which flow control counts),
/// flags its type does not define are dropped, and a field block split over CONTINUATION frames arrives whole in
/// its HEADERS or PUSH_PROMISE (``HTTP2FrameDecoder``). The encoder writes any frame as it is given, valid or not
/// (``HTTP2FrameEncoder``).
package struct HTTP2Frame: Hashable, Sendable {
    /// The stream; ``HTTP2StreamID/connection`` for SETTINGS, PING, GOAWAY and a connection WINDOW_UPDATE.
    package var streamID: HTTP2StreamID
    /// The type and its fields.
    package var payload: Payload

    /// A frame on `streamID` carrying `payload`.
    package init(streamID: HTTP2StreamID, payload: Payload) {
        self.streamID = streamID
        self.payload = payload
    }

    /// What a frame carries, one case per type of RFC 9113 §6, and the frames of other types.
    package enum Payload: Hashable, Sendable {
        /// DATA (§6.1).
        case data(DataPayload)
        /// HEADERS (§6.2).
        case headers(HeadersPayload)
        /// PRIORITY (§6.3), deprecated: parsed and ignored.
        case priority(HTTP2Priority)
        /// RST_STREAM (§6.4): the reason the stream ends.
        case rstStream(HTTP2ErrorCode)
        /// SETTINGS (§6.5).
        case settings(SettingsPayload)
        /// PUSH_PROMISE (§6.6).
        case pushPromise(PushPromisePayload)
        /// PING (§6.7).
        case ping(PingPayload)
        /// GOAWAY (§6.8).
        case goAway(GoAwayPayload)
        /// WINDOW_UPDATE (§6.9): the credit, 1 to 2^31 − 1 when decoded.
        case windowUpdate(windowIncrement: UInt32)
        /// CONTINUATION (§6.10). The decoder joins these into their HEADERS or PUSH_PROMISE and never delivers
        /// one; the encoder writes them.
        case continuation(ContinuationPayload)
        /// A frame of a type RFC 9113 does not define (§5.5): kept whole, to be ignored.
        case unknown(UnknownPayload)
    }

    /// The frame's type.
    package var type: HTTP2FrameType {
        switch payload {
        case .data: .data
        case .headers: .headers
        case .priority: .priority
        case .rstStream: .rstStream
        case .settings: .settings
        case .pushPromise: .pushPromise
        case .ping: .ping
        case .goAway: .goAway
        case .windowUpdate: .windowUpdate
        case .continuation: .continuation
        case .unknown(let unknown): unknown.type
        }
    }
}
