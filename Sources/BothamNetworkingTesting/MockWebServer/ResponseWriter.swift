/// What happens to a connection after a response.
enum ResponseOutcome: Equatable {
    /// Read the next request on the same connection.
    case keepAlive
    /// Close the connection normally (FIN).
    case close
    /// Close the connection with a TCP reset (RST).
    case reset
}

/// Writes a ``MockResponse`` to a connection, applying its delay, throttle and ``SocketPolicy``.
enum ResponseWriter {
    /// The bytes sent for ``SocketPolicy/malformedStatusLine``.
    static let malformedStatusLine = Array("HTTP/1.1 ABC MALFORMED\r\n\r\n".utf8)
    /// How much larger than the body the `Content-Length` of ``SocketPolicy/wrongContentLength`` is.
    static let wrongContentLengthSurplus = 1024

    /// Sends `response` for `request` and says what to do with the connection next.
    static func send(_ response: MockResponse, for request: HTTPRequestHead, over io: ConnectionIO) -> ResponseOutcome {
        switch response.socketPolicy {
        case .disconnectAtStart:
            return .close
        case .resetConnection:
            return .reset
        case .noResponse:
            io.wake.waitForSignal()
            return .close
        default:
            break
        }
        do {
            try io.pause(for: response.headersDelay)
            if response.socketPolicy == .malformedStatusLine {
                try io.write(malformedStatusLine)
                return .close
            }
            let plan = ResponsePlan(response: response, request: request)
            try io.write(plan.head)
            if response.socketPolicy == .disconnectAfterHeaders { return .close }
            var body = plan.body
            if response.socketPolicy == .disconnectDuringBody {
                body = Array(body.prefix(body.count / 2))
            }
            try io.write(body, throttle: response.throttle)
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

/// The bytes of a response, with the framing headers the server adds.
private struct ResponsePlan {
    var head: [UInt8]
    var body: [UInt8]
    var closesConnection: Bool

    init(response: MockResponse, request: HTTPRequestHead) {
        let status = response.statusCode
        let isBodiless = (100..<200).contains(status) || status == 204
        let suppressesBody = request.method == "HEAD" || isBodiless || status == 304
        let policy = response.socketPolicy
        var headers = response.headers
        // HTTP/1.0 clients do not understand chunked coding: they get Content-Length framing instead.
        var chunkSize = request.minorVersion == 0 ? nil : response.chunkSize
        switch policy {
        case .wrongContentLength:
            headers.removeAll(named: "Content-Length")
            headers.removeAll(named: "Transfer-Encoding")
            let declared = response.body.count + ResponseWriter.wrongContentLengthSurplus
            headers.append(.init(name: "Content-Length", value: String(declared)))
            chunkSize = nil
        case .truncatedChunkedBody:
            headers.removeAll(named: "Content-Length")
            if !headers.contains(named: "Transfer-Encoding") {
                headers.append(.init(name: "Transfer-Encoding", value: "chunked"))
            }
            chunkSize = chunkSize ?? max(1, response.body.count / 2)
        default:
            if chunkSize != nil {
                if !headers.contains(named: "Transfer-Encoding") {
                    headers.append(.init(name: "Transfer-Encoding", value: "chunked"))
                }
            } else if !headers.contains(named: "Content-Length"), !isBodiless {
                headers.append(.init(name: "Content-Length", value: String(response.body.count)))
            }
        }

        let closingPolicies: Set<SocketPolicy> = [.wrongContentLength, .truncatedChunkedBody, .disconnectDuringBody]
        closesConnection =
            !request.wantsKeepAlive || response.closesConnectionAfterResponse
            || headers.tokens(named: "Connection").contains("close") || closingPolicies.contains(policy)
        if !headers.contains(named: "Connection") {
            if closesConnection {
                headers.append(.init(name: "Connection", value: "close"))
            } else if request.minorVersion == 0 {
                headers.append(.init(name: "Connection", value: "keep-alive"))
            }
        }

        var text = "HTTP/1.1 \(status) \(response.effectiveReasonPhrase)\r\n"
        for field in headers {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        head = Array(text.utf8)

        let payload = [UInt8](response.body)
        if suppressesBody {
            body = []
        } else if policy == .truncatedChunkedBody {
            body = Self.chunks(of: Array(payload.prefix(payload.count / 2)), size: chunkSize ?? 1, terminated: false)
        } else if let chunkSize {
            body = Self.chunks(of: payload, size: chunkSize, terminated: true)
        } else {
            body = payload
        }
    }

    /// Frames `payload` as chunks of at most `size` bytes, optionally with the last (zero-length) chunk.
    private static func chunks(of payload: [UInt8], size: Int, terminated: Bool) -> [UInt8] {
        let size = max(1, size)
        var wire: [UInt8] = []
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + size)
            wire += Array("\(String(end - offset, radix: 16))\r\n".utf8)
            wire += payload[offset..<end]
            wire += Array("\r\n".utf8)
            offset = end
        }
        if terminated {
            wire += Array("0\r\n\r\n".utf8)
        }
        return wire
    }
}
