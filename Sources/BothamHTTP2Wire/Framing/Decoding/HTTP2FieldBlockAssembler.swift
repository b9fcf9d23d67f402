/// Joins a field block split over HEADERS (or PUSH_PROMISE) and CONTINUATION frames (RFC 9113 §4.3, §6.10),
/// bounded in octets and in frames.
///
/// While a block is open, only a CONTINUATION of the same stream may come; anything else is a connection error
/// of type PROTOCOL_ERROR (§6.10; an extension frame too, §5.5). The limits are checked from a frame's header,
/// before its payload is buffered.
struct HTTP2FieldBlockAssembler: Sendable {
    /// The most octets a block may take.
    var maxBlockSize: Int
    /// The most CONTINUATION frames a block may take.
    var maxContinuations: Int
    /// The frame that opened the open block (its field block is taken into ``block``).
    private var opening: HTTP2Frame?
    /// The open block's fragments so far, appended in place (a whole block is copied once, when it ends).
    private var block: [UInt8] = []
    /// The CONTINUATION frames the open block took so far.
    private var continuations = 0

    /// An assembler with these limits.
    init(maxBlockSize: Int, maxContinuations: Int) {
        self.maxBlockSize = maxBlockSize
        self.maxContinuations = maxContinuations
    }

    /// Whether a block is open, waiting for CONTINUATION.
    var isOpen: Bool { opening != nil }

    /// Checks a frame header against the open block, if any: its type and stream, and the limits the frame
    /// would take the block past.
    func check(_ header: HTTP2FrameHeader) throws(HTTP2FrameError) {
        guard let opening else { return }
        guard header.type == .continuation, header.streamID == opening.streamID else {
            throw .connection(
                .protocolError,
                .continuationExpected(stream: opening.streamID, received: header.type, on: header.streamID))
        }
        guard continuations < maxContinuations else {
            throw .connection(.enhanceYourCalm, .tooManyContinuations(limit: maxContinuations))
        }
        guard block.count + header.length <= maxBlockSize else {
            throw .connection(.enhanceYourCalm, .headerBlockTooLarge(limit: maxBlockSize))
        }
    }

    /// Takes a decoded HEADERS, PUSH_PROMISE or CONTINUATION: a whole block comes back, a block that goes on
    /// comes back nil. Any other frame comes back as it is.
    mutating func take(_ frame: HTTP2Frame) throws(HTTP2FrameError) -> HTTP2Frame? {
        switch frame.payload {
        case .headers(let headers):
            try checkSize(headers.fieldBlock.count)
            guard headers.endHeaders else { return open(frame) }
        case .pushPromise(let promise):
            try checkSize(promise.fieldBlock.count)
            guard promise.endHeaders else { return open(frame) }
        case .continuation(let continuation):
            return try append(continuation)
        default:
            break
        }
        return frame
    }

    private mutating func open(_ frame: HTTP2Frame) -> HTTP2Frame? {
        var frame = frame
        switch frame.payload {
        case .headers(var headers):
            block = headers.fieldBlock
            headers.fieldBlock = []
            frame.payload = .headers(headers)
        case .pushPromise(var promise):
            block = promise.fieldBlock
            promise.fieldBlock = []
            frame.payload = .pushPromise(promise)
        default:
            block = []
        }
        opening = frame
        continuations = 0
        return nil
    }

    private mutating func append(_ continuation: HTTP2Frame.ContinuationPayload) throws(HTTP2FrameError)
        -> HTTP2Frame?
    {
        guard var frame = opening else { throw .connection(.protocolError, .unexpectedContinuation) }
        continuations += 1
        block += continuation.fieldBlockFragment
        guard continuation.endHeaders else { return nil }
        switch frame.payload {
        case .headers(var headers):
            headers.fieldBlock = block
            headers.endHeaders = true
            frame.payload = .headers(headers)
        case .pushPromise(var promise):
            promise.fieldBlock = block
            promise.endHeaders = true
            frame.payload = .pushPromise(promise)
        default:
            break
        }
        opening = nil
        block = []
        continuations = 0
        return frame
    }

    private func checkSize(_ size: Int) throws(HTTP2FrameError) {
        guard size <= maxBlockSize else {
            throw .connection(.enhanceYourCalm, .headerBlockTooLarge(limit: maxBlockSize))
        }
    }
}
