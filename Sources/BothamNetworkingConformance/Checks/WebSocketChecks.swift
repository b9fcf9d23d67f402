import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// The close code a ``WebSocketPeer`` script saw, reported once when the script ends.
private struct PeerReport: Sendable {
    let stream: AsyncStream<WebSocket.CloseCode?>
    let continuation: AsyncStream<WebSocket.CloseCode?>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: WebSocket.CloseCode?.self)
    }

    /// Reports `peer`'s close code.
    func report(_ peer: WebSocketPeer) {
        continuation.yield(peer.closeCode)
        continuation.finish()
    }
}

extension ConformanceContext {
    /// A WebSocket at `path` of `server`, opened within 5 s (scaled). A transport that refuses it (even with
    /// `invalidRequest`, the answer of one that cannot run WebSockets) fails the check.
    fileprivate func openWebSocket(
        _ server: MockWebServer, _ path: String, protocols: [String] = [], options: WebSocket.Options = .init()
    ) async throws(ConformanceFailure) -> WebSocket {
        let apiClient = self.apiClient(server)
        let outcome = await bounded(within: .seconds(5)) { () async -> Result<WebSocket, APIClientError> in
            do throws(APIClientError) {
                return .success(try await apiClient.webSocket(path, protocols: protocols, options: options))
            } catch {
                return .failure(error)
            }
        }
        switch try require(outcome, "opening the WebSocket had not ended after \(scaled(.seconds(5)))") {
        case .success(let socket):
            return socket
        case .failure(let error):
            throw ConformanceFailure(reason: "opening the WebSocket failed: \(error)")
        }
    }

    /// The next message of `socket` (`nil` at its clean end), or the error it failed with, within `limit` (scaled).
    fileprivate func next(
        _ socket: WebSocket, within limit: Duration = .seconds(5)
    ) async throws(ConformanceFailure) -> Result<WebSocket.Message?, APIClientError> {
        let outcome = await bounded(within: limit) { () async -> Result<WebSocket.Message?, APIClientError> in
            do throws(APIClientError) {
                var iterator = socket.messages.makeAsyncIterator()
                return .success(try await iterator.next())
            } catch {
                return .failure(error)
            }
        }
        return try require(outcome, "no WebSocket message or end after \(scaled(limit))")
    }

    /// Expects the next message of `socket` to be `expected`.
    fileprivate func expectMessage(_ socket: WebSocket, _ expected: WebSocket.Message) async throws(ConformanceFailure)
    {
        let result = try await next(socket)
        guard case .success(let message) = result, message == expected else {
            throw ConformanceFailure(reason: "expected the message \(expected), got \(result)")
        }
    }

    /// Expects `socket` to fail with `networkError(kind)` and to report `code`, within `limit` (scaled).
    fileprivate func expectFailure(
        _ socket: WebSocket, _ kind: APIClientError.NetworkFailure.Kind, code: WebSocket.CloseCode,
        within limit: Duration = .seconds(5)
    ) async throws(ConformanceFailure) {
        let result = try await next(socket, within: limit)
        guard case .failure(.networkError(let failure)) = result, failure.kind == kind else {
            throw ConformanceFailure(reason: "the messages ended with \(result), not networkError(\(kind))")
        }
        try expect(socket.closeCode == code, "closeCode is \(String(describing: socket.closeCode)), not \(code)")
    }

    /// Closes `socket` within `limit` (scaled) and returns how long it took.
    fileprivate func close(
        _ socket: WebSocket, code: WebSocket.CloseCode = .normalClosure, reason: String = "",
        within limit: Duration = .seconds(5)
    ) async throws(ConformanceFailure) -> Duration {
        let outcome = await bounded(within: limit) { () async -> Duration in
            let start = ContinuousClock.now
            await socket.close(code: code, reason: reason)
            return ContinuousClock.now - start
        }
        return try require(outcome, "close() had not returned after \(scaled(limit))")
    }

    /// The client's close code as the server's script saw it, reported within 5 s (scaled).
    fileprivate func peerCloseCode(_ report: PeerReport) async throws(ConformanceFailure) -> WebSocket.CloseCode? {
        let outcome = await bounded(within: .seconds(5)) { () async -> WebSocket.CloseCode?? in
            for await code in report.stream { return .some(code) }
            return .none
        }
        guard let reported = outcome, let code = reported else {
            throw ConformanceFailure(reason: "the server's script had not ended after \(scaled(.seconds(5)))")
        }
        return code
    }

    /// Runs a check that `fault` (injected first) fails the socket with `networkError(kind)` and `code` on both
    /// sides: the client reports it, and its close frame carries it to the server.
    fileprivate func expectRefused(
        _ fault: WebSocketPeer.Fault, _ kind: APIClientError.NetworkFailure.Kind, code: WebSocket.CloseCode,
        options: WebSocket.Options = .init()
    ) async throws(ConformanceFailure) {
        let server = try server()
        defer { server.shutdown() }
        let report = PeerReport()
        server.enqueue(
            .webSocket { peer in
                defer { report.report(peer) }
                try await peer.send(.text("before"))
                try await peer.inject(fault)
                _ = try await peer.receive()
            })
        let socket = try await openWebSocket(server, "/refused", options: options)

        try await expectMessage(socket, .text("before"))
        try await expectFailure(socket, kind, code: code)
        let received = try await peerCloseCode(report)
        try expect(received == code, "the server received close code \(String(describing: received)), not \(code)")
    }
}

extension ConformanceCheck {
    /// Text and binary messages round-trip, and the client's close ends the socket with 1000 on both sides.
    package static let webSocketEcho = ConformanceCheck(
        .webSockets, "echo",
        "text and binary messages round-trip through an echoing server; the client's close is 1000 on both sides"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let report = PeerReport()
        server.enqueue(
            .webSocket(subprotocol: "echo.v1") { peer in
                defer { report.report(peer) }
                while let message = try await peer.receive() { try await peer.send(message) }
            })
        let socket = try await context.openWebSocket(server, "/echo", protocols: ["echo.v1"])

        try expect(socket.subprotocol == "echo.v1", "subprotocol is \(String(describing: socket.subprotocol))")
        let binary = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for message in [WebSocket.Message.text("hello, wörld"), .binary(binary), .text("")] {
            let sent = await context.bounded(within: .seconds(5)) { () async -> APIClientError? in
                do throws(APIClientError) {
                    try await socket.send(message)
                    return nil
                } catch {
                    return error
                }
            }
            guard case .some(nil) = sent else {
                throw ConformanceFailure(reason: "sending failed or hung: \(String(describing: sent))")
            }
            try await context.expectMessage(socket, message)
        }
        _ = try await context.close(socket)
        try expect(socket.closeCode == .normalClosure, "closeCode is \(String(describing: socket.closeCode))")
        let received = try await context.peerCloseCode(report)
        try expect(received == .normalClosure, "the server received \(String(describing: received)), not 1000")
    }

    /// The client's close code reaches the server.
    package static let webSocketClientCloseCode = ConformanceCheck(
        .webSockets, "clientCloseCode", "the client's close code (4001) reaches the server and comes back"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let report = PeerReport()
        server.enqueue(
            .webSocket { peer in
                defer { report.report(peer) }
                _ = try await peer.receive()
            })
        let socket = try await context.openWebSocket(server, "/close")

        _ = try await context.close(socket, code: .other(4001), reason: "done")

        try expect(socket.closeCode == .other(4001), "closeCode is \(String(describing: socket.closeCode))")
        let received = try await context.peerCloseCode(report)
        try expect(received == .other(4001), "the server received \(String(describing: received)), not 4001")
    }

    /// The server's close code and reason reach the client.
    package static let webSocketServerCloseCode = ConformanceCheck(
        .webSockets, "serverCloseCode",
        "the server's close code and reason (4002 \"bye\") end the messages cleanly and reach closeCode and closeReason"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in try await peer.close(code: .other(4002), reason: "bye") })
        let socket = try await context.openWebSocket(server, "/closing")

        let result = try await context.next(socket)

        guard case .success(nil) = result else {
            throw ConformanceFailure(reason: "the messages ended with \(result), not a clean end")
        }
        try expect(socket.closeCode == .other(4002), "closeCode is \(String(describing: socket.closeCode))")
        try expect(socket.closeReason == "bye", "closeReason is \(String(describing: socket.closeReason))")
    }

    /// A masked frame from the server fails the socket with 1002.
    package static let webSocketProtocolError = ConformanceCheck(
        .webSockets, "protocolError",
        "a masked frame from the server fails with networkError(badServerResponse) and 1002 on both sides"
    ) { context in
        // A final text frame "hi", masked with the key 01 02 03 04: a server never masks (RFC 6455 §5.1).
        let masked: [UInt8] = [0x81, 0x82, 0x01, 0x02, 0x03, 0x04, 0x68 ^ 0x01, 0x69 ^ 0x02]
        try await context.expectRefused(.rawBytes(masked), .badServerResponse, code: .protocolError)
    }

    /// Text that is not UTF-8 fails the socket with 1007.
    package static let webSocketInvalidUTF8 = ConformanceCheck(
        .webSockets, "invalidUTF8",
        "a text message that is not UTF-8 fails with networkError(badServerResponse) and 1007 on both sides"
    ) { context in
        try await context.expectRefused(.invalidUTF8Text, .badServerResponse, code: .invalidFramePayloadData)
    }

    /// A message over `maxMessageSize` fails the socket with 1009.
    package static let webSocketMessageTooBig = ConformanceCheck(
        .webSockets, "messageTooBig",
        "a message over Options.maxMessageSize fails with networkError(responseTooLarge) and 1009 on both sides"
    ) { context in
        try await context.expectRefused(
            .oversizedMessage(64 * 1024), .responseTooLarge, code: .messageTooBig,
            options: WebSocket.Options(maxMessageSize: 16 * 1024))
    }

    /// A dropped connection fails the socket with `connectionLost` and 1006.
    package static let webSocketDropped = ConformanceCheck(
        .webSockets, "dropped",
        "a connection dropped without a close frame fails with networkError(connectionLost) and abnormalClosure"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.send(.text("before"))
                try await peer.inject(.dropConnection)
            })
        let socket = try await context.openWebSocket(server, "/drop")

        try await context.expectMessage(socket, .text("before"))
        try await context.expectFailure(socket, .connectionLost, code: .abnormalClosure)
    }

    /// `close()` returns after the close timeout when the server never answers.
    package static let webSocketCloseTimeout = ConformanceCheck(
        .webSockets, "closeTimeout",
        "close() returns after Options.closeTimeout (500 ms, within 2 s more) when the server never answers, 1006"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                try await peer.inject(.ignoreClose)
                try await peer.send(.text("ready"))
                _ = try await peer.receive()
            })
        let closeTimeout = Duration.milliseconds(500)
        let socket = try await context.openWebSocket(
            server, "/mute", options: WebSocket.Options(closeTimeout: closeTimeout))
        try await context.expectMessage(socket, .text("ready"))

        let duration = try await context.close(socket)

        try expect(duration >= closeTimeout, "close() returned after \(duration), before the close timeout")
        let latest = context.latest(closeTimeout + .seconds(2), for: duration)
        try expect(duration < latest, "close() took \(duration), longer than \(latest)")
        try expect(socket.closeCode == .abnormalClosure, "closeCode is \(String(describing: socket.closeCode))")
    }

    /// `ping()` returns once the server's pong arrives.
    package static let webSocketPing = ConformanceCheck(
        .webSockets, "ping", "ping() returns when the server's pong arrives, within 1 s"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(.webSocket { peer in _ = try await peer.receive() })
        let socket = try await context.openWebSocket(server, "/ping")

        for attempt in 1...3 {
            let outcome = await context.bounded(within: .seconds(1)) { () async -> APIClientError? in
                do throws(APIClientError) {
                    try await socket.ping()
                    return nil
                } catch {
                    return error
                }
            }
            guard case .some(nil) = outcome else {
                throw ConformanceFailure(
                    reason: "ping \(attempt) failed or had no pong: \(String(describing: outcome))")
            }
        }
        _ = try await context.close(socket)
    }

    /// A server that never answers pings is found dead by the keep-alive.
    package static let webSocketDeadPeer = ConformanceCheck(
        .webSockets, "deadPeer",
        "with Options.pingInterval (300 ms), a server that never pongs fails the messages with connectionLost in 2 s"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            .webSocket { peer in
                // "ready" first: a ping before it (a loaded machine may delay the script) is still answered.
                try await peer.send(.text("ready"))
                try await peer.inject(.ignorePings)
                _ = try await peer.receive()
            })
        let socket = try await context.openWebSocket(
            server, "/deaf", options: WebSocket.Options(pingInterval: .milliseconds(300)))
        try await context.expectMessage(socket, .text("ready"))

        try await context.expectFailure(socket, .connectionLost, code: .abnormalClosure, within: .seconds(2))
    }
}
