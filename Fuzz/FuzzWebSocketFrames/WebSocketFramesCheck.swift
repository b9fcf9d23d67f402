import BothamWebSocketWire
import FuzzSupport

/// Properties of a WebSocket session for any bytes a peer could send. The first input byte picks the role,
/// whether permessage-deflate is on and with which parameters, the limits, and how the rest is cut into chunks;
/// the rest is the peer's byte stream.
///
/// - it never traps or hangs; a violation is a `.failed` event, the last one, after which the session is closed
///   and reads nothing more; `.closed` is also last;
/// - the stream gives the same events and the same output whole, in the chunks the input picks and one byte at
///   a time;
/// - no message is over the message limit; what the session writes is well-formed frames, masked exactly when
///   it is a client, a close among them carrying a code valid on the wire;
/// - every message it delivered, sent by a peer session of the other role, reads back the same;
/// - the UTF-8 validator agrees with the standard library on the stream, whole and split;
/// - the stream's start read as a `Sec-WebSocket-Extensions` value: what our server accepts, our client accepts
///   with the same parameters.
enum WebSocketFramesCheck {
    /// The deflate parameters the first byte picks from (nil: not negotiated).
    static let deflates: [PerMessageDeflate.Parameters?] = [
        nil, .init(), .init(serverNoContextTakeover: true, clientNoContextTakeover: true),
        .init(serverMaxWindowBits: 9, clientMaxWindowBits: 8),
    ]
    /// The limits it picks from.
    static let limits = [WebSocketLimits(maxFrameSize: 64, maxMessageSize: 200), WebSocketLimits()]

    /// The events and output of one stream.
    struct Outcome: Equatable {
        var events: [WebSocketSession.Event] = []
        var output: [UInt8] = []
        var state: WebSocketSession.State = .open
    }

    /// Checks one input.
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let settings = input.byte()
        let role: WebSocketSession.Role = settings & 0x01 == 0 ? .client : .server
        let deflate = deflates[Int((settings >> 1) & 0x03)]
        let limit = limits[Int((settings >> 3) & 0x01)]
        let chunkSize = Int(settings >> 4) * 9 + 1
        let stream = input.rest()

        checkValidator(stream)
        checkExtensions(String(decoding: stream.prefix(96), as: UTF8.self))

        let whole = read(stream, chunkSize: max(1, stream.count), role: role, deflate: deflate, limits: limit)
        let chunked = read(stream, chunkSize: chunkSize, role: role, deflate: deflate, limits: limit)
        fuzzExpect(chunked == whole, "chunks of \(chunkSize) read differently from the whole stream")
        if stream.count <= 2_048 {
            let bytewise = read(stream, chunkSize: 1, role: role, deflate: deflate, limits: limit)
            fuzzExpect(bytewise == whole, "one byte at a time read differently from the whole stream")
        }
        check(whole, role: role, limits: limit)
        echo(whole, role: role, deflate: deflate)
    }

    /// The outcome of `stream` fed in chunks of `chunkSize`.
    static func read(
        _ stream: [UInt8], chunkSize: Int, role: WebSocketSession.Role, deflate: PerMessageDeflate.Parameters?,
        limits: WebSocketLimits
    ) -> Outcome {
        var session = WebSocketSession(role: role, limits: limits, deflate: deflate, maskingKey: { 0x5EED_0001 })
        var outcome = Outcome()
        var offset = 0
        repeat {
            let end = min(stream.count, offset + chunkSize)
            outcome.events += session.receive(Array(stream[offset..<end]))
            offset = end
        } while offset < stream.count
        outcome.output = session.takeOutput()
        outcome.state = session.state
        return outcome
    }

    /// The properties of one outcome.
    static func check(_ outcome: Outcome, role: WebSocketSession.Role, limits: WebSocketLimits) {
        for (index, event) in outcome.events.enumerated() {
            switch event {
            case .failed(let code, _):
                fuzzExpect(index == outcome.events.count - 1, "events after a failure")
                fuzzExpect([1002, 1007, 1009].contains(code), "failed with \(code)")
                fuzzExpect(outcome.state == .closed, "not closed after a failure")
            case .closed(let code, _):
                fuzzExpect(index == outcome.events.count - 1, "events after the close")
                fuzzExpect(code.map(WebSocketCloseCode.isValidOnWire) ?? true, "closed with \(code ?? 0)")
            case .message(.binary(let bytes)):
                fuzzExpect(bytes.count <= limits.maxMessageSize, "a message over the limit")
            case .message(.text(let text)):
                fuzzExpect(text.utf8.count <= limits.maxMessageSize, "a text message over the limit")
            case .ping(let payload), .pong(let payload):
                fuzzExpect(payload.count <= 125, "a control payload over 125 bytes")
            }
        }
        var rest = outcome.output[...]
        while !rest.isEmpty {
            guard let decoded = WebSocketFrame.decode(rest) else {
                fuzzExpect(false, "the output is not whole frames")
                return
            }
            fuzzExpect((decoded.maskingKey != nil) == (role == .client), "masking does not match the role")
            fuzzExpect(decoded.reservedBits == 0 && !decoded.frame.rsv1, "a control frame with RSV bits")
            if decoded.frame.opcode == .close, decoded.frame.payload.count >= 2 {
                let code = UInt16(decoded.frame.payload[0]) << 8 | UInt16(decoded.frame.payload[1])
                fuzzExpect(WebSocketCloseCode.isValidOnWire(code), "sent close code \(code)")
                fuzzExpect(UTF8Validator.isValid(decoded.frame.payload.dropFirst(2)), "a close reason not UTF-8")
            }
            fuzzExpect(decoded.frame.opcode.isControl, "the session wrote a data frame on its own")
            rest = rest.dropFirst(decoded.byteCount)
        }
    }

    /// The messages delivered, sent by a peer of the other role, read back the same.
    static func echo(_ outcome: Outcome, role: WebSocketSession.Role, deflate: PerMessageDeflate.Parameters?) {
        let messages = outcome.events.compactMap { event -> WebSocketMessage? in
            if case .message(let message) = event { return message }
            return nil
        }
        guard !messages.isEmpty else { return }
        var peer = WebSocketSession(
            role: role == .client ? .server : .client, deflate: deflate, maskingKey: { 0xA5A5_0F0F })
        var reader = WebSocketSession(role: role, limits: WebSocketLimits(), deflate: deflate, maskingKey: { 1 })
        for (index, message) in messages.enumerated() {
            do {
                try peer.send(message, fragmentSize: index.isMultiple(of: 2) ? nil : 7)
            } catch {
                fuzzExpect(false, "the peer could not send: \(error)")
            }
        }
        let echoed = reader.receive(peer.takeOutput())
        fuzzExpect(echoed == messages.map { .message($0) }, "messages sent back read differently")
    }

    /// The validator agrees with the standard library's decoding, whole and split in two anywhere.
    static func checkValidator(_ bytes: [UInt8]) {
        let expected = Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
        fuzzExpect(UTF8Validator.isValid(bytes) == expected, "the validator disagrees with the standard library")
        guard bytes.count <= 512 else { return }
        for split in stride(from: 0, through: bytes.count, by: max(1, bytes.count / 16)) {
            var validator = UTF8Validator()
            let valid = validator.validate(bytes[..<split]) && validator.validate(bytes[split...])
            fuzzExpect((valid && validator.isAtBoundary) == expected, "the validator split at \(split) disagrees")
        }
    }

    /// What our server accepts from an extensions header, our client accepts with the same parameters.
    static func checkExtensions(_ value: String) {
        guard let parameters = PerMessageDeflate.accept(offers: [value]) else { return }
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let headers = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Accept", WebSocketHandshake.acceptValue(forKey: key)),
            ("Sec-WebSocket-Extensions", parameters.headerValue),
        ]
        do {
            let negotiation = try WebSocketHandshake.validateResponse(
                status: 101, headers: headers, key: key, offeredProtocols: [],
                offeredDeflate: .init(clientMaxWindowBits: nil))
            fuzzExpect(
                negotiation.deflate?.serverMaxWindowBits == parameters.serverMaxWindowBits
                    && negotiation.deflate?.serverNoContextTakeover == parameters.serverNoContextTakeover
                    && negotiation.deflate?.clientNoContextTakeover == parameters.clientNoContextTakeover,
                "the client read \(parameters.headerValue) differently")
        } catch {
            fuzzExpect(false, "the client refused the server's \(parameters.headerValue): \(error)")
        }
    }
}
