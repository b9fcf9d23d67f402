import BothamNetworking

/// What happens to a connection after a response.
enum ResponseOutcome: Equatable {
    /// Read the next request on the same connection.
    case keepAlive
    /// Close the connection normally (FIN).
    case close
    /// Close the connection with a TCP reset (RST).
    case reset
    /// The client closed the connection while the server held its response back (``SocketPolicy/noResponse``).
    case closedByClient
}

/// Writes a ``MockResponse`` to a connection, applying its delay, throttle and ``SocketPolicy``.
enum ResponseWriter {
    /// The bytes sent for ``SocketPolicy/malformedStatusLine``.
    static let malformedStatusLine = Array("HTTP/1.1 ABC MALFORMED\r\n\r\n".utf8)
    /// How much larger than the body the `Content-Length` of ``SocketPolicy/wrongContentLength`` is.
    static let wrongContentLengthSurplus = 1024

    /// Sends `response` for `request` and says what to do with the connection next. Every body byte handed to the
    /// socket (framing excluded) is added to `bodyBytesWritten`.
    static func send(
        _ response: MockResponse,
        for request: HTTPRequestHead,
        over io: ConnectionIO,
        bodyBytesWritten: Lock<Int>
    ) -> ResponseOutcome {
        switch response.socketPolicy {
        case .disconnectAtStart:
            return .close
        case .resetConnection:
            return .reset
        case .noResponse:
            return io.waitForPeerClose() ? .closedByClient : .close
        default:
            break
        }
        do {
            try io.pause(for: response.headersDelay)
            if response.socketPolicy == .malformedStatusLine {
                try io.write(malformedStatusLine)
                return .close
            }
            if case .raw(let bytes) = response.socketPolicy {
                try io.write(Array(bytes))
                return response.closesConnectionAfterResponse || !request.wantsKeepAlive ? .close : .keepAlive
            }
            for status in response.interimStatusCodes {
                try io.write(Array("HTTP/1.1 \(status) \(HTTPReasonPhrase.phrase(for: status))\r\n\r\n".utf8))
            }
            let plan = ResponsePlan(response: response, request: request)
            try io.write(plan.head)
            if response.socketPolicy == .disconnectAfterHeaders { return .close }
            var writer = ResponseBodyWriter(
                io: io,
                throttle: response.throttle,
                wireLimit: plan.body.wireLimit,
                payloadCounter: bodyBytesWritten
            )
            try plan.body.write(to: &writer)
            return plan.closesConnection ? .close : .keepAlive
        } catch {
            return .close
        }
    }

    /// Sends a short plain-text error answer (for a request the server rejects) and closes gracefully.
    static func reject(_ rejection: HTTPRequestRejection, over io: ConnectionIO) -> ResponseOutcome {
        let body = rejection.message + "\n"
        let head =
            "HTTP/1.1 \(rejection.status) \(HTTPReasonPhrase.phrase(for: rejection.status))\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n"
        try? io.write(Array((head + body).utf8))
        io.drainAfterHalfClose()
        return .close
    }

    /// The interim response sent before reading a body the client announced with `Expect: 100-continue`.
    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}

/// The head of a response, with the framing headers the server adds, and the script of its body.
private struct ResponsePlan {
    var head: [UInt8]
    var body: ResponseBodyScript
    var closesConnection: Bool

    init(response: MockResponse, request: HTTPRequestHead) {
        let status = response.statusCode
        let isBodiless = (100..<200).contains(status) || status == 204
        let suppressesBody = request.method == .head || isBodiless || status == 304
        let policy = response.socketPolicy
        let isStreamed = response.streamedBody != nil
        var headers = response.headers
        var body = ResponseBodyScript(
            parts: response.streamedBody ?? [StubChunk(response.body)],
            framing: .raw,
            isTerminated: true,
            wireLimit: nil
        )
        // HTTP/1.0 clients do not understand chunked coding: they get Content-Length framing instead, or, for a
        // streamed body, the parts as they are with the end of the connection as the end of the body.
        var chunking: ResponseBodyScript.Framing?
        if request.minorVersion >= 1 {
            // A streamed body is one chunk per part; otherwise chunks of `chunkSize`, if chunked at all.
            chunking = isStreamed ? .chunked(maxChunkSize: nil) : response.chunkSize.map { .chunked(maxChunkSize: $0) }
        }
        switch policy {
        case .wrongContentLength:
            headers.remove(.contentLength)
            headers.remove(.transferEncoding)
            let declared = body.payloadCount + ResponseWriter.wrongContentLengthSurplus
            headers.add(.contentLength, String(declared))
            chunking = nil
        case .truncatedChunkedBody:
            headers.remove(.contentLength)
            if !headers.contains(.transferEncoding) {
                headers.add(.transferEncoding, "chunked")
            }
            let payloadCount = body.payloadCount
            chunking = chunking ?? .chunked(maxChunkSize: isStreamed ? nil : max(1, payloadCount / 2))
            body = body.prefix(payloadBytes: payloadCount / 2)
            body.isTerminated = false
        default:
            if chunking != nil {
                if !headers.contains(.transferEncoding) {
                    headers.add(.transferEncoding, "chunked")
                }
            } else if !headers.contains(.contentLength), !isBodiless, !isStreamed {
                headers.add(.contentLength, String(body.payloadCount))
            }
        }
        body.framing = chunking ?? .raw
        if isStreamed, response.streamEnd == .disconnect {
            body.isTerminated = false
        }

        let closingPolicies: Set<SocketPolicy> = [.wrongContentLength, .truncatedChunkedBody, .disconnectDuringBody]
        // A streamed body sent as it is has no length: closing the connection is what ends it.
        let isCloseDelimited = isStreamed && chunking == nil && !suppressesBody
        let announcesClose =
            !request.wantsKeepAlive || response.closesConnectionAfterResponse
            || headers.tokens(for: .connection).contains("close") || closingPolicies.contains(policy)
            || isCloseDelimited
        // A stream that ends in a disconnect drops without warning: it is not announced with `Connection: close`.
        closesConnection = announcesClose || (isStreamed && response.streamEnd == .disconnect)
        if !headers.contains(.connection) {
            if announcesClose {
                headers.add(.connection, "close")
            } else if request.minorVersion == 0 {
                headers.add(.connection, "keep-alive")
            }
        }

        var text = "HTTP/1.1 \(status) \(response.effectiveReasonPhrase)\r\n"
        for field in headers {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        text += "\r\n"
        head = Array(text.utf8)

        if suppressesBody {
            body = .empty
        } else if policy == .disconnectDuringBody {
            body.wireLimit = body.wireCount / 2
        }
        self.body = body
    }
}
