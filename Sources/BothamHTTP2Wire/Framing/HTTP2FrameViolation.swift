/// What a peer's frame did wrong (RFC 9113 §4–§6), the reason an ``HTTP2FrameError`` carries.
package enum HTTP2FrameViolation: Hashable, Sendable {
    /// A frame longer than our SETTINGS_MAX_FRAME_SIZE (§4.2).
    case frameTooLarge(HTTP2FrameType, length: Int, limit: Int)
    /// A frame of a connection-level type on a stream (SETTINGS, PING, GOAWAY).
    case streamIDMustBeZero(HTTP2FrameType, HTTP2StreamID)
    /// A frame of a stream-level type on stream 0 (DATA, HEADERS, PRIORITY, RST_STREAM, PUSH_PROMISE,
    /// CONTINUATION).
    case streamIDMustNotBeZero(HTTP2FrameType)
    /// A frame of a fixed size with another length (PRIORITY 5, RST_STREAM 4, PING 8, WINDOW_UPDATE 4).
    case wrongLength(HTTP2FrameType, length: Int, expected: Int)
    /// A frame too short for the fields it must carry (a Pad Length octet, priority fields, a promised stream,
    /// GOAWAY's 8 octets).
    case tooShort(HTTP2FrameType, length: Int, minimum: Int)
    /// A SETTINGS frame whose length is not a multiple of 6 (§6.5).
    case settingsLengthNotMultipleOfSix(length: Int)
    /// A SETTINGS acknowledgement with a payload (§6.5).
    case settingsAckWithPayload(length: Int)
    /// A SETTINGS parameter with a value §6.5.2 forbids.
    case invalidSetting(HTTP2Setting)
    /// A server's SETTINGS_ENABLE_PUSH of 1, which a client must refuse (§6.5.2).
    case pushEnabledByServer
    /// More padding than the payload has room for (§6.1, §6.2, §6.6).
    case paddingTooLong(HTTP2FrameType, padding: Int, available: Int)
    /// Priority fields that make a stream depend on itself (§5.3.1).
    case selfDependency(HTTP2FrameType)
    /// A WINDOW_UPDATE of 0 (§6.9).
    case zeroWindowIncrement
    /// A PUSH_PROMISE although we sent SETTINGS_ENABLE_PUSH = 0 (§6.6, §8.4).
    case pushPromiseRefused(promised: HTTP2StreamID)
    /// A PUSH_PROMISE promising stream 0 or a client's (odd) stream (§5.1.1, §6.6).
    case invalidPromisedStreamID(HTTP2StreamID)
    /// Another frame, or a CONTINUATION of another stream, inside the field block of `stream` (§6.10, §4.3).
    case continuationExpected(stream: HTTP2StreamID, received: HTTP2FrameType, on: HTTP2StreamID)
    /// A CONTINUATION with no field block to continue (§6.10).
    case unexpectedContinuation
    /// A field block larger than our limit (a CONTINUATION flood, §10.5).
    case headerBlockTooLarge(limit: Int)
    /// A field block in more CONTINUATION frames than our limit (a flood of small ones, §10.5).
    case tooManyContinuations(limit: Int)
}

extension HTTP2FrameViolation: CustomStringConvertible {
    /// A sentence naming what was wrong, with the numbers involved.
    package var description: String {
        switch self {
        case .frameTooLarge(let type, let length, let limit):
            "a \(type) frame of \(length) octets is over our SETTINGS_MAX_FRAME_SIZE of \(limit)"
        case .streamIDMustBeZero(let type, let stream): "a \(type) frame on \(stream), not on stream 0"
        case .streamIDMustNotBeZero(let type): "a \(type) frame on stream 0"
        case .wrongLength(let type, let length, let expected):
            "a \(type) frame of \(length) octets, not \(expected)"
        case .tooShort(let type, let length, let minimum):
            "a \(type) frame of \(length) octets, under the \(minimum) its fields need"
        case .settingsLengthNotMultipleOfSix(let length): "a SETTINGS frame of \(length) octets, not a multiple of 6"
        case .settingsAckWithPayload(let length): "a SETTINGS acknowledgement with \(length) octets of payload"
        case .invalidSetting(let setting): "an invalid setting \(setting)"
        case .pushEnabledByServer: "a server sent SETTINGS_ENABLE_PUSH = 1"
        case .paddingTooLong(let type, let padding, let available):
            "a \(type) frame with \(padding) octets of padding in \(available) available"
        case .selfDependency(let type): "a \(type) frame making its stream depend on itself"
        case .zeroWindowIncrement: "a WINDOW_UPDATE of 0"
        case .pushPromiseRefused(let promised): "a PUSH_PROMISE of \(promised) although push is disabled"
        case .invalidPromisedStreamID(let promised): "a PUSH_PROMISE of \(promised), not a server's stream"
        case .continuationExpected(let stream, let received, let on):
            "a \(received) frame on \(on) inside the field block of \(stream)"
        case .unexpectedContinuation: "a CONTINUATION frame with no field block to continue"
        case .headerBlockTooLarge(let limit): "a field block over our limit of \(limit) octets"
        case .tooManyContinuations(let limit): "a field block in more than \(limit) CONTINUATION frames"
        }
    }
}
