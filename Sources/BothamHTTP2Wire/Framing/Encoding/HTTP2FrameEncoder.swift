/// Writes frames (RFC 9113 §4.1, §6) for a peer whose SETTINGS_MAX_FRAME_SIZE is ``maxFrameSize``.
///
/// It writes any frame as it is given: stream identifiers, flags and orders are the caller's to get right (the
/// tests use it to write violations). It sets only the flags a type defines, writes padding as zeros and
/// reserved bits as 0, and refuses a payload over the peer's limit; a field block too large for one frame is
/// split into HEADERS and CONTINUATION by ``encodeHeaders(streamID:fieldBlock:endStream:priority:padding:into:)``.
package struct HTTP2FrameEncoder: Sendable {
    /// The peer's SETTINGS_MAX_FRAME_SIZE (16,384 until its SETTINGS say otherwise); read within 2^14…2^24 − 1.
    package var maxFrameSize: Int

    /// An encoder for a peer that accepts payloads of up to `maxFrameSize` octets.
    package init(maxFrameSize: Int = Int(HTTP2Setting.minimumMaxFrameSize)) {
        self.maxFrameSize = maxFrameSize
    }

    /// ``maxFrameSize`` within the range SETTINGS_MAX_FRAME_SIZE allows.
    package var effectiveMaxFrameSize: Int {
        min(max(maxFrameSize, Int(HTTP2Setting.minimumMaxFrameSize)), Int(HTTP2Setting.maximumMaxFrameSize))
    }

    /// The frame's octets.
    package func encode(_ frame: HTTP2Frame) throws(HTTP2FrameEncodingError) -> [UInt8] {
        var buffer: [UInt8] = []
        try encode(frame, into: &buffer)
        return buffer
    }

    /// Appends the frame's octets to `buffer`; on an error nothing is appended.
    package func encode(_ frame: HTTP2Frame, into buffer: inout [UInt8]) throws(HTTP2FrameEncodingError) {
        let (flags, length) = layout(frame.payload)
        guard length <= effectiveMaxFrameSize else {
            throw .frameTooLarge(frame.type, length: length, limit: effectiveMaxFrameSize)
        }
        buffer.reserveCapacity(buffer.count + HTTP2FrameHeader.size + length)
        HTTP2FrameHeader(length: length, type: frame.type, flags: flags, streamID: frame.streamID).write(into: &buffer)
        writePayload(frame.payload, into: &buffer)
    }

    /// Appends a field block as one HEADERS frame and as many CONTINUATION frames as the peer's
    /// SETTINGS_MAX_FRAME_SIZE requires (§4.3: nothing else may come between them on the connection), with
    /// END_HEADERS on the last one.
    package func encodeHeaders(
        streamID: HTTP2StreamID, fieldBlock: [UInt8], endStream: Bool, priority: HTTP2Priority? = nil,
        padding: UInt8? = nil, into buffer: inout [UInt8]
    ) {
        let limit = effectiveMaxFrameSize
        let overhead = (priority == nil ? 0 : HTTP2Priority.size) + (padding.map { Int($0) + 1 } ?? 0)
        var end = min(fieldBlock.count, limit - overhead)
        let headers = HTTP2Frame.HeadersPayload(
            fieldBlock: Array(fieldBlock[0..<end]), endStream: endStream, endHeaders: end == fieldBlock.count,
            priority: priority, padding: padding)
        write(HTTP2Frame(streamID: streamID, payload: .headers(headers)), into: &buffer)
        while end < fieldBlock.count {
            let next = min(fieldBlock.count, end + limit)
            let continuation = HTTP2Frame.ContinuationPayload(
                fieldBlockFragment: Array(fieldBlock[end..<next]), endHeaders: next == fieldBlock.count)
            write(HTTP2Frame(streamID: streamID, payload: .continuation(continuation)), into: &buffer)
            end = next
        }
    }

    /// The connection preface a client sends first (§3.4): the magic octets, then a SETTINGS frame announcing
    /// `settings` (its parameters that differ from the initial values).
    package func clientPreface(settings: HTTP2Settings) -> [UInt8] {
        var buffer = HTTP2ConnectionPreface.clientMagic
        let frame = HTTP2Frame(streamID: .connection, payload: .settings(.parameters(settings.nonDefaultParameters)))
        write(frame, into: &buffer)
        return buffer
    }

    /// Appends a frame known to fit (at most 6 settings, or a fragment cut to the limit).
    private func write(_ frame: HTTP2Frame, into buffer: inout [UInt8]) {
        let (flags, length) = layout(frame.payload)
        HTTP2FrameHeader(length: length, type: frame.type, flags: flags, streamID: frame.streamID).write(into: &buffer)
        writePayload(frame.payload, into: &buffer)
    }

    /// The flags and the payload length a frame is written with.
    private func layout(_ payload: HTTP2Frame.Payload) -> (HTTP2FrameFlags, Int) {
        var flags: HTTP2FrameFlags = []
        let length: Int
        switch payload {
        case .data(let data):
            if data.endStream { flags.insert(.endStream) }
            if data.padding != nil { flags.insert(.padded) }
            length = data.flowControlledLength
        case .headers(let headers):
            if headers.endStream { flags.insert(.endStream) }
            if headers.endHeaders { flags.insert(.endHeaders) }
            if headers.padding != nil { flags.insert(.padded) }
            if headers.priority != nil { flags.insert(.priority) }
            length =
                headers.fieldBlock.count + (headers.padding.map { Int($0) + 1 } ?? 0)
                + (headers.priority == nil ? 0 : HTTP2Priority.size)
        case .priority:
            length = HTTP2Priority.size
        case .rstStream:
            length = 4
        case .settings(.ack):
            flags.insert(.ack)
            length = 0
        case .settings(.parameters(let parameters)):
            length = parameters.count * 6
        case .pushPromise(let promise):
            if promise.endHeaders { flags.insert(.endHeaders) }
            if promise.padding != nil { flags.insert(.padded) }
            length = 4 + promise.fieldBlock.count + (promise.padding.map { Int($0) + 1 } ?? 0)
        case .ping(let ping):
            if ping.ack { flags.insert(.ack) }
            length = 8
        case .goAway(let goAway):
            length = 8 + goAway.debugData.count
        case .windowUpdate:
            length = 4
        case .continuation(let continuation):
            if continuation.endHeaders { flags.insert(.endHeaders) }
            length = continuation.fieldBlockFragment.count
        case .unknown(let unknown):
            flags = HTTP2FrameFlags(rawValue: unknown.flags)
            length = unknown.bytes.count
        }
        return (flags, length)
    }

    private func writePayload(_ payload: HTTP2Frame.Payload, into buffer: inout [UInt8]) {
        switch payload {
        case .data(let data):
            padded(data.padding, into: &buffer) { $0 += data.bytes }
        case .headers(let headers):
            padded(headers.padding, into: &buffer) {
                headers.priority?.write(into: &$0)
                $0 += headers.fieldBlock
            }
        case .priority(let priority):
            priority.write(into: &buffer)
        case .rstStream(let code):
            HTTP2Bytes.append(code.rawValue, to: &buffer)
        case .settings(.ack):
            break
        case .settings(.parameters(let parameters)):
            for setting in parameters {
                HTTP2Bytes.append(setting.parameter.rawValue, to: &buffer)
                HTTP2Bytes.append(setting.value, to: &buffer)
            }
        case .pushPromise(let promise):
            padded(promise.padding, into: &buffer) {
                HTTP2Bytes.append(promise.promisedStreamID.rawValue, to: &$0)
                $0 += promise.fieldBlock
            }
        case .ping(let ping):
            HTTP2Bytes.append(UInt32(truncatingIfNeeded: ping.opaqueData >> 32), to: &buffer)
            HTTP2Bytes.append(UInt32(truncatingIfNeeded: ping.opaqueData), to: &buffer)
        case .goAway(let goAway):
            HTTP2Bytes.append(goAway.lastStreamID.rawValue, to: &buffer)
            HTTP2Bytes.append(goAway.errorCode.rawValue, to: &buffer)
            buffer += goAway.debugData
        case .windowUpdate(let increment):
            HTTP2Bytes.append(increment & 0x7FFF_FFFF, to: &buffer)
        case .continuation(let continuation):
            buffer += continuation.fieldBlockFragment
        case .unknown(let unknown):
            buffer += unknown.bytes
        }
    }

    /// Writes the Pad Length octet when `padding` is set, then `body`, then the padding's zeros.
    private func padded(_ padding: UInt8?, into buffer: inout [UInt8], body: (inout [UInt8]) -> Void) {
        if let padding { buffer.append(padding) }
        body(&buffer)
        if let padding { buffer.append(contentsOf: repeatElement(0, count: Int(padding))) }
    }
}
