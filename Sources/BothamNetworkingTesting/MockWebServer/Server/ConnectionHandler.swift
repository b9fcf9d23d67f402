import BothamHTTP2Wire
import Foundation

/// Serves the requests of one accepted connection: over HTTP/2 when it opens with the HTTP/2 connection preface
/// (``HTTP2ServerSession``), else over HTTP/1.1, one after another, until either side closes it or the server
/// shuts down. Runs on the connection's own thread.
struct ConnectionHandler {
    let core: ServerCore
    let descriptor: Int32
    let connectionIndex: Int

    func run() {
        var io = ConnectionIO(descriptor: descriptor, wake: core.wake)
        if core.configuration.servesHTTP2PriorKnowledge,
            (try? io.startsWith(HTTP2ConnectionPreface.clientMagic)) == true
        {
            HTTP2ServerSession(core: core, descriptor: descriptor, connectionIndex: connectionIndex).run(io: &io)
            return
        }
        let parser = HTTPRequestParser(
            maxHeaderBytes: core.configuration.maxHeaderBytes,
            maxBodyBytes: core.configuration.maxBodyBytes
        )
        var sequenceNumber = 0
        while true {
            switch serveRequest(io: &io, parser: parser, sequenceNumber: sequenceNumber) {
            case .keepAlive:
                sequenceNumber += 1
            case .close:
                return
            case .closedByClient:
                core.clientClosedConnections.withLock { $0 += 1 }
                return
            case .reset:
                SystemCalls.enableResetOnClose(descriptor)
                return
            }
        }
    }

    private func serveRequest(io: inout ConnectionIO, parser: HTTPRequestParser, sequenceNumber: Int) -> ResponseOutcome
    {
        let head: HTTPRequestHead
        let framing: RequestBodyFraming
        let body: RequestBody
        do {
            guard let parsed = try parser.readHead(from: &io) else { return .close }
            head = parsed
            do {
                framing = try parser.bodyFraming(of: head)
            } catch {
                throw HTTPRequestReadError.rejected(error)
            }
            if head.minorVersion >= 1, head.headers.contains("Expect"), !head.expectsContinue {
                throw HTTPRequestReadError.rejected(HTTPRequestRejection(status: 417, message: "Unsupported Expect"))
            }
            if head.expectsContinue, framing != .none {
                do {
                    try io.write(ResponseWriter.continueResponse)
                } catch {
                    return .close
                }
            }
            body = try parser.readBody(framing, from: &io)
        } catch HTTPRequestReadError.rejected(let rejection) {
            return ResponseWriter.reject(rejection, over: io)
        } catch {
            return .close
        }

        let request = RecordedRequest(
            head: head,
            body: body,
            sequenceNumber: sequenceNumber,
            connectionIndex: connectionIndex
        )
        let response = core.record(request)
        if let script = response.webSocket {
            return MockWebSocketConnection.serve(
                script, response: response, request: request, head: head, io: &io, core: core)
        }
        return ResponseWriter.send(response, for: head, over: io, bodyBytesWritten: core.responseBodyBytesWritten)
    }
}
