/// The WebSocket protocol of one connection without I/O (RFC 6455 §5–§8, RFC 7692): bytes read from the
/// connection go in through ``receive(_:)-(UnsafeRawBufferPointer)`` and come out as events; messages, pings and
/// closes go in through the send methods and come out of ``takeOutput()`` as the bytes to write, in order.
///
/// Frames are parsed incrementally across any split of the input (one byte at a time included); every protocol
/// violation fails the connection with the right close code (1002, 1007, 1009) queued; text is validated as UTF-8
/// as it arrives, so an invalid byte fails the message before its later fragments arrive; sizes are checked
/// against ``WebSocketLimits`` as announced and, for compressed messages, as inflated, so a small compressed
/// message cannot inflate past the message limit. Pings are answered with a pong automatically.
///
/// Not Sendable: one per connection, owned by the one event loop or thread that drives it. It holds zlib
/// streams by reference, so a copy must not be used alongside the original.
package struct WebSocketSession {
    /// Which end of the connection this session is: a client masks what it sends and refuses masked frames; a
    /// server the opposite.
    package enum Role: Sendable, Equatable {
        /// The client end.
        case client
        /// The server end.
        case server
    }

    /// What the bytes received produced.
    package enum Event: Sendable, Equatable {
        /// A whole message.
        case message(WebSocketMessage)
        /// A ping; its pong is already in the output (unless a close was sent first).
        case ping([UInt8])
        /// A pong.
        case pong([UInt8])
        /// The close handshake is complete: the peer's close answered ours, or the peer closed first and our
        /// answering close is in the output. `code` is the peer's, nil when its close frame had none (1005).
        /// Write the output, then close the connection.
        case closed(code: UInt16?, reason: String)
        /// The peer broke the protocol: a close frame with `code` (1002, 1007, 1009) is in the output (unless a
        /// close was already sent). Write the output, then close the connection.
        case failed(code: UInt16, reason: String)
    }

    /// Where the close handshake stands.
    package enum State: Sendable, Equatable {
        /// Messages flow both ways.
        case open
        /// We sent a close and wait for the peer's; messages still arrive, nothing more may be sent.
        case closeSent
        /// The peer's close arrived and our answer is in the output, not yet taken; ``takeOutput()`` moves to
        /// `closed`.
        case closeReceived
        /// Done: nothing more is read, nothing more may be sent (what the output holds is still to be written).
        case closed
    }

    /// A frame whose header has been read and whose payload is arriving.
    private struct FrameInProgress {
        var opcode: WebSocketOpcode
        var fin: Bool
        var mask: (UInt8, UInt8, UInt8, UInt8)?
        var length: Int
        var received = 0
        var controlPayload: [UInt8] = []
    }

    /// A data message whose first frame has arrived.
    private struct MessageInProgress {
        var isText: Bool
        var compressed: Bool
        var bytes: [UInt8] = []
        var utf8 = UTF8Validator()
    }

    /// A protocol violation found while reading.
    private struct Violation: Error {
        var code: UInt16
        var reason: String
    }

    /// This end's role.
    package let role: Role
    /// The limits on what the peer sends.
    package let limits: WebSocketLimits
    /// The permessage-deflate parameters in use, nil when the extension was not negotiated.
    package let deflate: PerMessageDeflate.Parameters?
    private let maskingKey: () -> UInt32
    private let compressor: DeflateCompressor?
    private let decompressor: DeflateDecompressor?

    /// Where the close handshake stands.
    package private(set) var state: State = .open
    private var output: [UInt8] = []
    private var header: [UInt8] = []
    private var frame: FrameInProgress?
    private var message: MessageInProgress?

    /// A session for one connection that has completed its opening handshake. The client role masks every frame
    /// with a fresh `maskingKey()` (pass a CSPRNG); the server role never calls it. `deflate` is what the
    /// handshake negotiated.
    package init(
        role: Role, limits: WebSocketLimits = .init(), deflate: PerMessageDeflate.Parameters? = nil,
        maskingKey: @escaping () -> UInt32
    ) {
        self.role = role
        self.limits = limits
        self.deflate = deflate
        self.maskingKey = maskingKey
        if let deflate {
            let isClient = role == .client
            compressor = DeflateCompressor(
                windowBits: isClient ? deflate.clientMaxWindowBits : deflate.serverMaxWindowBits,
                noContextTakeover: isClient ? deflate.clientNoContextTakeover : deflate.serverNoContextTakeover)
            decompressor = DeflateDecompressor(
                windowBits: isClient ? deflate.serverMaxWindowBits : deflate.clientMaxWindowBits,
                noContextTakeover: isClient ? deflate.serverNoContextTakeover : deflate.clientNoContextTakeover)
        } else {
            compressor = nil
            decompressor = nil
        }
        header.reserveCapacity(14)
    }

    /// Whether there are bytes to write.
    package var hasOutput: Bool { !output.isEmpty }

    /// The bytes to write, in order; the output is then empty. Taking the answer to the peer's close moves
    /// ``State-swift.enum/closeReceived`` to ``State-swift.enum/closed``.
    package mutating func takeOutput() -> [UInt8] {
        if state == .closeReceived { state = .closed }
        defer { output = [] }
        return output
    }

    // MARK: - Sending

    /// Queues `message`, compressed when permessage-deflate is in use, in frames of at most `fragmentSize`
    /// payload bytes (one frame when nil). Throws when a close was sent or received.
    package mutating func send(_ message: WebSocketMessage, fragmentSize: Int? = nil) throws(WebSocketSessionError) {
        try requireOpen()
        var payload: [UInt8]
        let opcode: WebSocketOpcode
        switch message {
        case .text(let text):
            payload = Array(text.utf8)
            opcode = .text
        case .binary(let bytes):
            payload = bytes
            opcode = .binary
        }
        if let compressor {
            guard let compressed = compressor.compress(payload) else {
                throw WebSocketSessionError(.compressionFailed, "zlib could not compress the message")
            }
            payload = compressed
        }
        let size = max(1, fragmentSize ?? payload.count)
        var start = 0
        repeat {
            let end = min(payload.count, start + size)
            writeFrame(
                fin: end == payload.count, rsv1: start == 0 && compressor != nil,
                opcode: start == 0 ? opcode : .continuation, payload: payload[start..<end])
            start = end
        } while start < payload.count
    }

    /// Queues a ping with `payload` (at most 125 bytes).
    package mutating func sendPing(_ payload: [UInt8]) throws(WebSocketSessionError) {
        try requireOpen()
        try requireControlSize(payload.count)
        writeFrame(fin: true, rsv1: false, opcode: .ping, payload: payload[...])
    }

    /// Queues an unsolicited pong with `payload` (at most 125 bytes); pings are answered without it.
    package mutating func sendPong(_ payload: [UInt8]) throws(WebSocketSessionError) {
        try requireOpen()
        try requireControlSize(payload.count)
        writeFrame(fin: true, rsv1: false, opcode: .pong, payload: payload[...])
    }

    /// Queues a close frame with `code` and `reason` (at most 123 UTF-8 bytes; empty when `code` is nil) and moves
    /// to ``State-swift.enum/closeSent``: the handshake completes when the peer's close arrives.
    package mutating func close(code: UInt16?, reason: String) throws(WebSocketSessionError) {
        try requireOpen()
        let reasonBytes = Array(reason.utf8)
        guard let code else {
            guard reasonBytes.isEmpty else {
                throw WebSocketSessionError(.invalidCloseCode, "a close reason needs a close code")
            }
            writeFrame(fin: true, rsv1: false, opcode: .close, payload: [])
            state = .closeSent
            return
        }
        guard WebSocketCloseCode.isValidOnWire(code) else {
            throw WebSocketSessionError(.invalidCloseCode, "close code \(code) may not be sent")
        }
        guard reasonBytes.count <= 123 else {
            throw WebSocketSessionError(.payloadTooLong, "a close reason is at most 123 UTF-8 bytes")
        }
        writeFrame(fin: true, rsv1: false, opcode: .close, payload: Self.closePayload(code, reasonBytes)[...])
        state = .closeSent
    }

    private func requireOpen() throws(WebSocketSessionError) {
        guard state == .open else {
            throw WebSocketSessionError(.closing, "the WebSocket is closing: nothing more may be sent")
        }
    }

    private func requireControlSize(_ count: Int) throws(WebSocketSessionError) {
        guard count <= 125 else {
            throw WebSocketSessionError(.payloadTooLong, "a control frame's payload is at most 125 bytes")
        }
    }

    private mutating func writeFrame(fin: Bool, rsv1: Bool, opcode: WebSocketOpcode, payload: ArraySlice<UInt8>) {
        let key = role == .client ? maskingKey() : nil
        WebSocketFrame.appendHeader(
            fin: fin, rsv1: rsv1, opcode: opcode.rawValue, length: payload.count, maskingKey: key, into: &output)
        WebSocketFrame.appendPayload(payload, maskingKey: key, into: &output)
    }

    private static func closePayload(_ code: UInt16, _ reason: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)] + reason
    }

    // MARK: - Receiving

    /// Reads bytes from the connection; returns what they completed, in order. Bytes after the close handshake
    /// or a failure are ignored.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        var index = 0
        do throws(Violation) {
            while index < bytes.count && (state == .open || state == .closeSent) {
                guard let current = frame else {
                    header.append(bytes[index])
                    index += 1
                    try readHeaderByte(&events)
                    continue
                }
                let take = min(current.length - current.received, bytes.count - index)
                try readPayload(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                if let frame, frame.received == frame.length { try endFrame(&events) }
            }
        } catch {
            fail(error, &events)
        }
        return events
    }

    /// Reads bytes from the connection; see ``receive(_:)-(UnsafeRawBufferPointer)``.
    package mutating func receive(_ bytes: [UInt8]) -> [Event] {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// Checks the header as far as it has arrived; when it is whole, starts its frame.
    private mutating func readHeaderByte(_ events: inout [Event]) throws(Violation) {
        if header.count == 2 { try checkFirstBytes() }
        guard header.count >= 2 else { return }
        let lengthCode = header[1] & 0x7F
        let masked = header[1] & 0x80 != 0
        let lengthBytes = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0
        guard header.count == 2 + lengthBytes + (masked ? 4 : 0) else { return }
        var length = UInt64(lengthCode)
        if lengthBytes > 0 {
            length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else {
                throw Violation(code: 1002, reason: "a 64-bit frame length with its most significant bit set")
            }
        }
        guard length <= UInt64(limits.maxFrameSize) else {
            throw Violation(
                code: 1009, reason: "a frame of \(length) bytes is over the limit of \(limits.maxFrameSize)")
        }
        let opcode = WebSocketOpcode(rawValue: header[0] & 0x0F) ?? .binary
        var mask: (UInt8, UInt8, UInt8, UInt8)?
        if masked {
            let at = 2 + lengthBytes
            mask = (header[at], header[at + 1], header[at + 2], header[at + 3])
        }
        let fin = header[0] & 0x80 != 0
        let rsv1 = header[0] & 0x40 != 0
        header.removeAll(keepingCapacity: true)
        if !opcode.isControl {
            if opcode != .continuation {
                message = MessageInProgress(isText: opcode == .text, compressed: rsv1)
            }
            if let message, !message.compressed,
                UInt64(message.bytes.count) + length > UInt64(limits.maxMessageSize)
            {
                throw Violation(
                    code: 1009, reason: "a message over the limit of \(limits.maxMessageSize) bytes")
            }
        }
        frame = FrameInProgress(opcode: opcode, fin: fin, mask: mask, length: Int(length))
        if length == 0 { try endFrame(&events) }
    }

    /// The checks the first two header bytes allow (RFC 6455 §5.2, §5.4, §5.5; RFC 7692 §6).
    private func checkFirstBytes() throws(Violation) {
        let first = header[0]
        let second = header[1]
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw Violation(code: 1002, reason: "unknown opcode \(first & 0x0F)")
        }
        guard first & 0x30 == 0 else {
            throw Violation(code: 1002, reason: "RSV2 or RSV3 set (no extension defines them)")
        }
        if first & 0x40 != 0 {
            guard deflate != nil else {
                throw Violation(code: 1002, reason: "RSV1 set without permessage-deflate negotiated")
            }
            guard !opcode.isControl && opcode != .continuation else {
                throw Violation(code: 1002, reason: "RSV1 set on a \(opcode) frame (only a message's first frame)")
            }
        }
        let masked = second & 0x80 != 0
        if role == .client && masked {
            throw Violation(code: 1002, reason: "a masked frame from the server")
        }
        if role == .server && !masked {
            throw Violation(code: 1002, reason: "an unmasked frame from the client")
        }
        if opcode.isControl {
            guard first & 0x80 != 0 else {
                throw Violation(
                    code: 1002, reason: "a fragmented \(opcode) frame (control frames are never fragmented)")
            }
            guard second & 0x7F <= 125 else {
                throw Violation(code: 1002, reason: "a \(opcode) frame over 125 bytes")
            }
        } else if opcode == .continuation {
            guard message != nil else {
                throw Violation(code: 1002, reason: "a continuation frame with no message to continue")
            }
        } else if message != nil {
            throw Violation(code: 1002, reason: "a new \(opcode) frame while a fragmented message is unfinished")
        }
    }

    /// Unmasks and takes in a piece of the current frame's payload.
    private mutating func readPayload(_ bytes: UnsafeRawBufferPointer) throws(Violation) {
        guard var current = frame else { return }
        var chunk = [UInt8](bytes)
        if let mask = current.mask {
            let received = current.received
            chunk.withUnsafeMutableBytes {
                WebSocketFrame.applyMask([mask.0, mask.1, mask.2, mask.3], from: received, to: $0)
            }
        }
        current.received += chunk.count
        if current.opcode.isControl {
            current.controlPayload += chunk
            frame = current
            return
        }
        frame = current
        try takeMessageBytes(chunk)
    }

    /// Adds payload bytes of the message in progress: inflated when compressed, validated as UTF-8 when text.
    private mutating func takeMessageBytes(_ chunk: [UInt8]) throws(Violation) {
        guard var current = message else { return }
        message = nil
        defer { message = current }
        if current.compressed, let decompressor {
            var invalid = false
            let limit = limits.maxMessageSize - current.bytes.count
            let result = chunk.withUnsafeBytes { raw in
                Result { () throws(DeflateDecompressor.Failure) in
                    try decompressor.inflate(raw, limit: limit) { piece in
                        if current.isText && !current.utf8.validate(piece) {
                            invalid = true
                            return false
                        }
                        current.bytes.append(contentsOf: piece)
                        return true
                    }
                }
            }
            switch result {
            case .success:
                break
            case .failure(.tooBig):
                throw Violation(
                    code: 1009, reason: "a message inflating past the limit of \(limits.maxMessageSize) bytes")
            case .failure(.corrupt(let detail)):
                throw Violation(code: 1007, reason: "a compressed message that does not inflate: \(detail)")
            }
            if invalid { throw Violation(code: 1007, reason: "a text message that is not valid UTF-8") }
            return
        }
        if current.isText && !current.utf8.validate(chunk) {
            throw Violation(code: 1007, reason: "a text message that is not valid UTF-8")
        }
        current.bytes.append(contentsOf: chunk)
    }

    /// Handles a frame whose payload is whole.
    private mutating func endFrame(_ events: inout [Event]) throws(Violation) {
        guard let current = frame else { return }
        frame = nil
        switch current.opcode {
        case .ping:
            if state == .open {
                writeFrame(fin: true, rsv1: false, opcode: .pong, payload: current.controlPayload[...])
            }
            events.append(.ping(current.controlPayload))
        case .pong:
            events.append(.pong(current.controlPayload))
        case .close:
            try receiveClose(current.controlPayload, &events)
        case .text, .binary, .continuation:
            guard current.fin else { return }
            if message?.compressed == true {
                try takeMessageBytes([0x00, 0x00, 0xFF, 0xFF])
                decompressor?.endMessage()
            }
            guard let finished = message else { return }
            message = nil
            if finished.isText {
                guard finished.utf8.isAtBoundary else {
                    throw Violation(code: 1007, reason: "a text message that ends inside a UTF-8 sequence")
                }
                events.append(.message(.text(String(decoding: finished.bytes, as: UTF8.self))))
            } else {
                events.append(.message(.binary(finished.bytes)))
            }
        }
    }

    /// The peer's close frame: checked, answered when we had not closed, and the handshake completed.
    private mutating func receiveClose(_ payload: [UInt8], _ events: inout [Event]) throws(Violation) {
        var code: UInt16?
        var reason = ""
        if payload.count == 1 {
            throw Violation(code: 1002, reason: "a close frame with a 1-byte payload")
        }
        if payload.count >= 2 {
            let value = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard WebSocketCloseCode.isValidOnWire(value) else {
                throw Violation(code: 1002, reason: "close code \(value) is not valid on the wire")
            }
            let reasonBytes = payload[2...]
            guard UTF8Validator.isValid(reasonBytes) else {
                throw Violation(code: 1007, reason: "a close reason that is not valid UTF-8")
            }
            code = value
            reason = String(decoding: reasonBytes, as: UTF8.self)
        }
        if state == .open {
            let answer = code.map { Self.closePayload($0, []) } ?? []
            writeFrame(fin: true, rsv1: false, opcode: .close, payload: answer[...])
            state = .closeReceived
        } else {
            state = .closed
        }
        events.append(.closed(code: code, reason: reason))
    }

    /// Fails the connection: queues a close with the violation's code (unless one was sent) and stops reading.
    private mutating func fail(_ violation: Violation, _ events: inout [Event]) {
        if state == .open {
            var reason = Array(violation.reason.utf8.prefix(123))
            while !UTF8Validator.isValid(reason) { reason.removeLast() }
            writeFrame(fin: true, rsv1: false, opcode: .close, payload: Self.closePayload(violation.code, reason)[...])
        }
        state = .closed
        frame = nil
        message = nil
        events.append(.failed(code: violation.code, reason: violation.reason))
    }
}
