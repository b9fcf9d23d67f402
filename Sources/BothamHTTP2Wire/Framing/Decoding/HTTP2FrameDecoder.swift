/// Reads the frames a server sends us (we are the client) from bytes that arrive in chunks of any size: a frame
/// split at any offset decodes the same as a whole one.
///
/// - Every frame is checked against the rules of RFC 9113 §4–§6 that are about one frame (see
///   ``HTTP2FrameViolation``), and each violation is a typed ``HTTP2FrameError``, classified as §5.4 says;
///   nothing traps on any input.
/// - Padding is removed; flags a type does not define and the reserved bits are ignored; frames of unknown types
///   are delivered as ``HTTP2Frame/Payload/unknown(_:)``, for the connection to ignore (§5.5).
/// - A field block split over CONTINUATION frames is delivered once, whole, in its HEADERS (or PUSH_PROMISE)
///   with `endHeaders` set; CONTINUATION frames themselves are never delivered (§6.10).
/// - Memory stays bounded: a frame over our SETTINGS_MAX_FRAME_SIZE is refused from its header, a field block
///   over ``Configuration/maxHeaderBlockSize`` or in more than ``Configuration/maxContinuationFrames``
///   CONTINUATIONs likewise; the caller should call ``nextFrame()`` until it returns nil after each ``append(_:)``.
///
/// After a connection error the decoder is spent: ``nextFrame()`` throws that error again. After a stream error
/// the offending frame has been skipped and decoding goes on.
package struct HTTP2FrameDecoder: Sendable {
    /// Our limits; change ``Configuration/maxFrameSize`` once the server acknowledged a new
    /// SETTINGS_MAX_FRAME_SIZE.
    package var configuration: Configuration {
        didSet {
            assembler.maxBlockSize = configuration.maxHeaderBlockSize
            assembler.maxContinuations = configuration.maxContinuationFrames
        }
    }
    private var buffer: [UInt8] = []
    /// Where the unread bytes start in ``buffer``.
    private var start = 0
    /// Octets of a refused frame still to be discarded as they arrive.
    private var skipping = 0
    private var assembler: HTTP2FieldBlockAssembler
    /// The connection error that ended decoding, if one did.
    package private(set) var failure: HTTP2FrameError?

    /// A decoder with these limits.
    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        assembler = HTTP2FieldBlockAssembler(
            maxBlockSize: configuration.maxHeaderBlockSize, maxContinuations: configuration.maxContinuationFrames)
    }

    /// The octets received and not yet decoded (at most one frame and a header when ``nextFrame()`` is called
    /// until it returns nil).
    package var bufferedByteCount: Int { buffer.count - start }

    /// Whether a field block is open, waiting for CONTINUATION frames.
    package var isInsideFieldBlock: Bool { assembler.isOpen }

    /// Adds bytes read from the connection.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4096, start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func nextFrame() throws(HTTP2FrameError) -> HTTP2Frame? {
        if let failure { throw failure }
        do {
            return try decode()
        } catch {
            if error.isConnectionError { failure = error }
            throw error
        }
    }

    private mutating func decode() throws(HTTP2FrameError) -> HTTP2Frame? {
        while true {
            if skipping > 0 {
                let discarded = min(skipping, bufferedByteCount)
                start += discarded
                skipping -= discarded
                guard skipping == 0 else { return nil }
            }
            guard bufferedByteCount >= HTTP2FrameHeader.size else { return nil }
            let header = HTTP2FrameHeader(buffer, at: start)
            try assembler.check(header)
            try checkLength(header)
            guard bufferedByteCount >= HTTP2FrameHeader.size + header.length else { return nil }
            let payloadStart = start + HTTP2FrameHeader.size
            // Consumed before it is parsed: after a stream error decoding goes on with the next frame.
            start = payloadStart + header.length
            let frame = try HTTP2PayloadParser(
                header: header, bytes: buffer, start: payloadStart,
                acceptsPushPromise: configuration.acceptsPushPromise
            ).parse()
            if let whole = try assembler.take(frame) { return whole }
        }
    }

    /// Refuses a frame over our SETTINGS_MAX_FRAME_SIZE from its header (§4.2): a connection FRAME_SIZE_ERROR,
    /// since a long frame could alter the connection's state (it carries a field block or settings, is on
    /// stream 0, counts against the connection's window as DATA does, or is of a type we cannot judge) — except
    /// PRIORITY on a stream, whose wrong length is a stream error (§6.3): its octets are skipped as they come.
    private mutating func checkLength(_ header: HTTP2FrameHeader) throws(HTTP2FrameError) {
        let limit = configuration.effectiveMaxFrameSize
        guard header.length > limit else { return }
        let violation = HTTP2FrameViolation.frameTooLarge(header.type, length: header.length, limit: limit)
        guard header.type == .priority, !header.streamID.isConnection else {
            throw .connection(.frameSizeError, violation)
        }
        start += HTTP2FrameHeader.size
        skipping = header.length
        throw .stream(header.streamID, .frameSizeError, violation)
    }
}
