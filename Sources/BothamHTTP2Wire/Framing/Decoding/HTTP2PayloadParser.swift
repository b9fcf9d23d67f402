/// Reads one complete frame's payload into an ``HTTP2Frame``, checking every rule of RFC 9113 §6 that is about
/// that frame alone; rules about sequences of frames (CONTINUATION, §6.10) are the ``HTTP2FieldBlockAssembler``'s.
///
/// Each violation is classified as the RFC says. Where the RFC allows a stream error but the frame carries a
/// field block, the error is a connection error instead (§5.4.1 allows it): the block would otherwise go
/// undecoded and the HPACK context out of step (§4.3).
struct HTTP2PayloadParser {
    /// The frame's header.
    let header: HTTP2FrameHeader
    /// The buffer holding the payload.
    let bytes: [UInt8]
    /// Where the payload starts in ``bytes``; it takes `header.length` octets from there.
    let start: Int
    /// Whether a PUSH_PROMISE is delivered rather than refused.
    let acceptsPushPromise: Bool

    private var length: Int { header.length }
    private var stream: HTTP2StreamID { header.streamID }

    /// The frame, or the violation it commits.
    func parse() throws(HTTP2FrameError) -> HTTP2Frame {
        let payload: HTTP2Frame.Payload
        switch header.type {
        case .data: payload = try data()
        case .headers: payload = try headers()
        case .priority: payload = try priority()
        case .rstStream: payload = try rstStream()
        case .settings: payload = try settings()
        case .pushPromise: payload = try pushPromise()
        case .ping: payload = try ping()
        case .goAway: payload = try goAway()
        case .windowUpdate: payload = try windowUpdate()
        case .continuation: payload = try continuation()
        default:
            payload = .unknown(
                HTTP2Frame.UnknownPayload(type: header.type, flags: header.flags.rawValue, bytes: slice(0, length)))
        }
        return HTTP2Frame(streamID: stream, payload: payload)
    }

    private func data() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        let (padding, body) = try unpadded(fixed: 0)
        // A slice of the decoder's buffer, not a copy: a 1 MiB body over HTTP/2 is 128 DATA frames of nginx's 8 KiB.
        return .data(
            HTTP2Frame.DataPayload(
                bytes: bytes[(start + body.lowerBound)..<(start + body.upperBound)],
                endStream: header.flags.contains(.endStream), padding: padding))
    }

    private func headers() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        let hasPriority = header.flags.contains(.priority)
        let (padding, body) = try unpadded(fixed: hasPriority ? HTTP2Priority.size : 0)
        var priority: HTTP2Priority?
        if hasPriority {
            let fields = HTTP2Priority(bytes, at: start + body.lowerBound - HTTP2Priority.size)
            guard fields.dependency != stream else { throw .connection(.protocolError, .selfDependency(.headers)) }
            priority = fields
        }
        return .headers(
            HTTP2Frame.HeadersPayload(
                fieldBlock: slice(body.lowerBound, body.upperBound), endStream: header.flags.contains(.endStream),
                endHeaders: header.flags.contains(.endHeaders), priority: priority, padding: padding))
    }

    private func priority() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        guard length == HTTP2Priority.size else {
            throw .stream(
                stream, .frameSizeError, .wrongLength(.priority, length: length, expected: HTTP2Priority.size))
        }
        let fields = HTTP2Priority(bytes, at: start)
        guard fields.dependency != stream else { throw .stream(stream, .protocolError, .selfDependency(.priority)) }
        return .priority(fields)
    }

    private func rstStream() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        try requireLength(4)
        return .rstStream(HTTP2ErrorCode(rawValue: HTTP2Bytes.uint32(bytes, at: start)))
    }

    private func settings() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireConnection()
        if header.flags.contains(.ack) {
            guard length == 0 else { throw .connection(.frameSizeError, .settingsAckWithPayload(length: length)) }
            return .settings(.ack)
        }
        guard length % 6 == 0 else {
            throw .connection(.frameSizeError, .settingsLengthNotMultipleOfSix(length: length))
        }
        var parameters: [HTTP2Setting] = []
        parameters.reserveCapacity(length / 6)
        for offset in stride(from: start, to: start + length, by: 6) {
            let setting = HTTP2Setting(
                HTTP2SettingsParameter(rawValue: HTTP2Bytes.uint16(bytes, at: offset)),
                HTTP2Bytes.uint32(bytes, at: offset + 2))
            try setting.validate()
            // §6.5.2: "A client MUST treat receipt of a SETTINGS frame with SETTINGS_ENABLE_PUSH set to 1 as a
            // connection error of type PROTOCOL_ERROR." The frames we read are a server's.
            guard setting != HTTP2Setting(.enablePush, 1) else {
                throw .connection(.protocolError, .pushEnabledByServer)
            }
            parameters.append(setting)
        }
        return .settings(.parameters(parameters))
    }

    private func pushPromise() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        let (padding, body) = try unpadded(fixed: 4)
        let promised = HTTP2StreamID(HTTP2Bytes.uint32(bytes, at: start + body.lowerBound - 4))
        guard promised.isServerInitiated else {
            throw .connection(.protocolError, .invalidPromisedStreamID(promised))
        }
        guard acceptsPushPromise else { throw .connection(.protocolError, .pushPromiseRefused(promised: promised)) }
        return .pushPromise(
            HTTP2Frame.PushPromisePayload(
                promisedStreamID: promised, fieldBlock: slice(body.lowerBound, body.upperBound),
                endHeaders: header.flags.contains(.endHeaders), padding: padding))
    }

    private func ping() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireConnection()
        try requireLength(8)
        let opaque = UInt64(HTTP2Bytes.uint32(bytes, at: start)) << 32 | UInt64(HTTP2Bytes.uint32(bytes, at: start + 4))
        return .ping(HTTP2Frame.PingPayload(opaqueData: opaque, ack: header.flags.contains(.ack)))
    }

    private func goAway() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireConnection()
        guard length >= 8 else { throw .connection(.frameSizeError, .tooShort(.goAway, length: length, minimum: 8)) }
        return .goAway(
            HTTP2Frame.GoAwayPayload(
                lastStreamID: HTTP2StreamID(HTTP2Bytes.uint32(bytes, at: start)),
                errorCode: HTTP2ErrorCode(rawValue: HTTP2Bytes.uint32(bytes, at: start + 4)),
                debugData: slice(8, length)))
    }

    private func windowUpdate() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireLength(4)
        let increment = HTTP2Bytes.uint32(bytes, at: start) & 0x7FFF_FFFF
        guard increment != 0 else {
            if stream.isConnection { throw .connection(.protocolError, .zeroWindowIncrement) }
            throw .stream(stream, .protocolError, .zeroWindowIncrement)
        }
        return .windowUpdate(windowIncrement: increment)
    }

    private func continuation() throws(HTTP2FrameError) -> HTTP2Frame.Payload {
        try requireStream()
        return .continuation(
            HTTP2Frame.ContinuationPayload(
                fieldBlockFragment: slice(0, length), endHeaders: header.flags.contains(.endHeaders)))
    }

    /// The padding's length (nil when not PADDED) and the range of the payload left between the `fixed` octets
    /// after the Pad Length octet and the padding. Too short a payload is a FRAME_SIZE_ERROR, too much padding a
    /// PROTOCOL_ERROR (§6.1, §6.2, §6.6), both connection errors: DATA counts against the connection's window,
    /// HEADERS and PUSH_PROMISE carry field blocks (§4.2).
    private func unpadded(fixed: Int) throws(HTTP2FrameError) -> (UInt8?, Range<Int>) {
        let padded = header.flags.contains(.padded)
        let minimum = (padded ? 1 : 0) + fixed
        guard length >= minimum else {
            throw .connection(.frameSizeError, .tooShort(header.type, length: length, minimum: minimum))
        }
        guard padded else { return (nil, fixed..<length) }
        let padding = bytes[start]
        let available = length - minimum
        guard Int(padding) <= available else {
            throw .connection(
                .protocolError, .paddingTooLong(header.type, padding: Int(padding), available: available))
        }
        return (padding, minimum..<(length - Int(padding)))
    }

    private func requireStream() throws(HTTP2FrameError) {
        guard !stream.isConnection else { throw .connection(.protocolError, .streamIDMustNotBeZero(header.type)) }
    }

    private func requireConnection() throws(HTTP2FrameError) {
        guard stream.isConnection else { throw .connection(.protocolError, .streamIDMustBeZero(header.type, stream)) }
    }

    /// A fixed length, whose violation is a connection FRAME_SIZE_ERROR (RST_STREAM §6.4, PING §6.7,
    /// WINDOW_UPDATE §6.9).
    private func requireLength(_ expected: Int) throws(HTTP2FrameError) {
        guard length == expected else {
            throw .connection(.frameSizeError, .wrongLength(header.type, length: length, expected: expected))
        }
    }

    /// The payload's octets `from..<to` (offsets within the payload).
    private func slice(_ from: Int, _ to: Int) -> [UInt8] {
        Array(bytes[(start + from)..<(start + to)])
    }
}
