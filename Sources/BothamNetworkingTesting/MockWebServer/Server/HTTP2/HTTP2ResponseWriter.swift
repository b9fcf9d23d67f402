import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// Sends one ``MockResponse`` on one stream of an HTTP/2 connection, on the stream's own thread: its delay,
/// interim responses, fields, body parts and throttle, and its ``SocketPolicy`` as the nearest HTTP/2 fault.
///
/// - ``SocketPolicy/disconnectAtStart``: the connection closes (FIN) before the response; on a new connection
///   without a byte sent (the server's preface waits for its first response).
/// - ``SocketPolicy/disconnectAfterHeaders``: HEADERS, then the connection closes.
/// - ``SocketPolicy/disconnectDuringBody``, ``SocketPolicy/truncatedChunkedBody``: half the body, then the
///   connection closes.
/// - ``SocketPolicy/wrongContentLength``: `content-length` 1,024 bytes above the body, the body, then the
///   connection closes.
/// - ``SocketPolicy/malformedStatusLine``: `:status` `ABC`.
/// - ``SocketPolicy/resetConnection``: a TCP reset.
/// - ``SocketPolicy/noResponse``: nothing, until the client resets the stream or closes the connection.
/// - ``SocketPolicy/raw(_:)``: RST_STREAM HTTP_1_1_REQUIRED (raw HTTP/1.1 bytes have no HTTP/2 form).
///
/// Fields HTTP/2 forbids (`connection`, `keep-alive`, `proxy-connection`, `transfer-encoding`, `upgrade`) are not
/// sent; ``MockResponse/chunkSize`` caps the DATA frames, and a streamed body goes one part per DATA frame (as far
/// as the client's frame size allows). ``MockResponse/closesConnectionAfterResponse`` sends GOAWAY, and the
/// connection closes once its last response is sent.
struct HTTP2ResponseWriter {
    let connection: HTTP2ServerConnection
    let stream: UInt32
    let method: HTTPMethod
    /// Counts a client that hung up on a ``SocketPolicy/noResponse``.
    let hangUps: Lock<Int>

    static let connectionSpecificFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]

    /// Sends `response`; a connection that ends meanwhile ends it silently.
    func send(_ response: MockResponse) {
        do {
            try write(response)
        } catch {
            // The connection ended or the server is shutting down: nothing more can be sent.
        }
    }

    private func write(_ response: MockResponse) throws(ConnectionIOError) {
        switch response.socketPolicy {
        case .disconnectAtStart:
            return connection.disconnect()
        case .resetConnection:
            return connection.reset()
        default:
            // Our SETTINGS go out now, so that a held or delayed answer cannot trip the client's SETTINGS timeout.
            try connection.releasePreface()
        }
        switch response.socketPolicy {
        case .noResponse:
            if connection.waitUntilEnded(stream) { hangUps.withLock { $0 += 1 } }
            return
        case .raw:
            return try connection.send([
                HTTP2Frame(streamID: HTTP2StreamID(stream), payload: .rstStream(.http11Required))
            ])
        default:
            break
        }
        try connection.io.pause(for: response.headersDelay)
        guard !connection.state.withLock({ $0.hasEnded(stream) }) else { return }
        if response.socketPolicy == .malformedStatusLine {
            return try connection.sendHeaders(
                [HPACKHeaderField(name: ":status", value: "ABC")], on: stream, endStream: true)
        }
        // 101 Switching Protocols has no HTTP/2 form (RFC 9113 §8.6).
        for status in response.interimStatusCodes where status != 101 {
            try connection.sendHeaders(
                [HPACKHeaderField(name: ":status", value: String(status))], on: stream, endStream: false)
        }
        let plan = HTTP2ResponsePlan(response: response, method: method)
        try connection.sendHeaders(plan.fields, on: stream, endStream: plan.endsWithHeaders)
        if response.socketPolicy == .disconnectAfterHeaders { return connection.disconnect() }
        guard !plan.endsWithHeaders else { return finish(response) }
        guard try sendBody(plan, throttle: response.throttle) else { return }
        if plan.disconnectsAfterBody { return connection.disconnect() }
        finish(response)
    }

    /// Sends the plan's parts, each after its delay, within the throttle. Returns `false` when the stream ended.
    private func sendBody(_ plan: HTTP2ResponsePlan, throttle: MockResponse.Throttle?) throws(ConnectionIOError) -> Bool
    {
        var sentInPeriod = 0
        for (index, part) in plan.parts.enumerated() {
            try connection.io.pause(for: part.delay)
            let isLast = index == plan.parts.count - 1
            var rest = part.bytes
            repeat {
                var slice = rest
                if let throttle {
                    if sentInPeriod >= throttle.bytesPerPeriod {
                        try connection.io.pause(for: throttle.period)
                        sentInPeriod = 0
                    }
                    slice = rest.prefix(throttle.bytesPerPeriod - sentInPeriod)
                }
                let endStream = isLast && slice.count == rest.count && !plan.disconnectsAfterBody
                guard try connection.sendData(slice, on: stream, maxFrame: plan.maxFrame, endStream: endStream) else {
                    return false
                }
                sentInPeriod += slice.count
                rest = rest.dropFirst(slice.count)
            } while !rest.isEmpty
        }
        if plan.parts.isEmpty, !plan.disconnectsAfterBody {
            return try connection.sendData(Data(), on: stream, maxFrame: nil, endStream: true)
        }
        return true
    }

    /// After a complete response: GOAWAY when the response closes the connection.
    private func finish(_ response: MockResponse) {
        guard response.closesConnectionAfterResponse else { return }
        // Read and set together: the reader accepts no stream after this one's GOAWAY names the last.
        let lastStream = connection.state.update { state in
            state.isGoingAway = true
            return state.lastStream
        }
        let goAway = HTTP2Frame.GoAwayPayload(lastStreamID: HTTP2StreamID(lastStream), errorCode: .noError)
        try? connection.send([HTTP2Frame(streamID: .connection, payload: .goAway(goAway))])
    }
}

/// The fields and body a response goes out with over HTTP/2.
private struct HTTP2ResponsePlan {
    var fields: [HPACKHeaderField]
    var parts: [StubChunk]
    /// Whether HEADERS carries END_STREAM (no body).
    var endsWithHeaders: Bool
    /// Whether the connection closes after the parts instead of the stream ending.
    var disconnectsAfterBody: Bool
    var maxFrame: Int?

    init(response: MockResponse, method: HTTPMethod) {
        let status = response.statusCode
        let isBodiless = (100..<200).contains(status) || status == 204
        let suppressesBody = method == .head || isBodiless || status == 304
        let isStreamed = response.streamedBody != nil
        var parts = response.streamedBody ?? [StubChunk(response.body)]
        let payloadCount = parts.reduce(0) { $0 + $1.bytes.count }
        var fields = [HPACKHeaderField(name: ":status", value: String(status))]
        var hasLength = false
        for field in response.headers {
            let name = field.name.rawName.lowercased()
            guard !HTTP2ResponseWriter.connectionSpecificFields.contains(name) else { continue }
            if name == "content-length" {
                hasLength = true
                if response.socketPolicy == .wrongContentLength { continue }
            }
            fields.append(HPACKHeaderField(name: name, value: field.value))
        }
        if response.socketPolicy == .wrongContentLength {
            fields.append(HPACKHeaderField(name: "content-length", value: String(payloadCount + 1024)))
        } else if !hasLength, !isBodiless, !isStreamed {
            fields.append(HPACKHeaderField(name: "content-length", value: String(payloadCount)))
        }
        disconnectsAfterBody = isStreamed && response.streamEnd == .disconnect
        if response.socketPolicy == .wrongContentLength { disconnectsAfterBody = true }
        if [.disconnectDuringBody, .truncatedChunkedBody].contains(response.socketPolicy) {
            parts = Self.prefix(of: parts, payloadBytes: payloadCount / 2)
            disconnectsAfterBody = true
        }
        if suppressesBody {
            parts = []
            disconnectsAfterBody = false
        }
        self.fields = fields
        self.parts = parts
        endsWithHeaders = suppressesBody || (!isStreamed && payloadCount == 0 && !disconnectsAfterBody)
        maxFrame = isStreamed ? nil : response.chunkSize
    }

    private static func prefix(of parts: [StubChunk], payloadBytes count: Int) -> [StubChunk] {
        var kept: [StubChunk] = []
        var remaining = count
        for part in parts where remaining > 0 {
            let bytes = part.bytes.prefix(remaining)
            kept.append(StubChunk(bytes, after: part.delay))
            remaining -= bytes.count
        }
        return kept
    }
}
