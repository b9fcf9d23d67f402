import Foundation

/// An open WebSocket (RFC 6455): whole messages both ways, pings, and the close handshake.
///
/// ```swift
/// let socket = try await apiClient.webSocket("/chat", protocols: ["chat.v2"])
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// print(socket.closeCode ?? .abnormalClosure)  // how it ended
/// ```
///
/// Open one with ``BothamAPIClient/webSocket(_:parameters:headers:protocols:options:)``. Failures are
/// ``APIClientError``s (<doc:WebSockets>); dropping the last reference closes the connection (`1001 Going Away`).
public final class WebSocket: Sendable {
    /// The connection in use and the response that opened it (another after a reconnection).
    private struct Current: Sendable {
        var response: HTTPResponse
        var handle: WebSocketChannelHandle
        /// Whether the client closed the socket (no reconnection after that).
        var closedByClient = false
    }

    private let current: Lock<Current>
    /// Opens the socket again (the same handshake, through every interceptor), when ``Options/reconnection`` is set.
    private let reopen: (@Sendable () async throws(APIClientError) -> (HTTPResponse, WebSocketChannelHandle))?
    private let reconnection: WebSocket.Reconnection?
    private let clock: any HTTPClock

    package init(
        response: HTTPResponse, handle: WebSocketChannelHandle, reconnection: WebSocket.Reconnection? = nil,
        clock: any HTTPClock = SystemClock(),
        reopen: (@Sendable () async throws(APIClientError) -> (HTTPResponse, WebSocketChannelHandle))? = nil
    ) {
        current = Lock(Current(response: response, handle: handle))
        self.reconnection = reopen == nil ? nil : reconnection
        self.clock = clock
        self.reopen = reopen
    }

    private var channel: any WebSocketChannel { current.withLock { $0.handle.channel } }

    /// The response that opened the socket: the server's `101 Switching Protocols` (or, over HTTP/2, its `200`)
    /// with its header fields; after a reconnection, the response that opened the new connection.
    public var response: HTTPResponse { current.withLock { $0.response } }

    /// The subprotocol the server chose among those offered, or `nil` when it chose none.
    public var subprotocol: String? { channel.subprotocol }

    /// Sends a message; suspends while the send buffer is full.
    ///
    /// - Throws: ``APIClientError/networkError(_:)`` once the socket is closing or closed, or broke.
    public func send(_ message: WebSocket.Message) async throws(APIClientError) {
        try await channel.send(message)
    }

    /// The messages the peer sends, in order, as they are read: the sequence ends when the close handshake ends,
    /// and throws when the connection fails. Iterate it from one task at a time.
    public var messages: WebSocket.Messages { WebSocket.Messages(socket: self) }

    /// Sends a ping and returns when the peer's pong arrives.
    public func ping() async throws(APIClientError) {
        try await channel.ping()
    }

    /// Closes the socket: sends a close frame with `code` and `reason` (at most 123 bytes of UTF-8) and returns once
    /// the peer answered or the close timeout (``Options/closeTimeout``) passed. Closing a closed socket does
    /// nothing.
    public func close(code: WebSocket.CloseCode = .normalClosure, reason: String = "") async {
        let channel = current.withLock { current in
            current.closedByClient = true
            return current.handle.channel
        }
        await channel.close(code: code, reason: reason)
    }

    /// How the socket ended: the peer's close code (``CloseCode/noStatusReceived`` when its close frame had none,
    /// ``CloseCode/abnormalClosure`` when the connection ended without one); `nil` while it is open.
    public var closeCode: WebSocket.CloseCode? { channel.closure?.code }

    /// The reason the peer gave with its close code (often empty); `nil` while the socket is open.
    public var closeReason: String? { channel.closure?.reason }

    /// The next message, for ``Messages``: reconnects first when the connection ended in a way
    /// ``Options/reconnection`` covers.
    fileprivate func receive() async throws(APIClientError) -> WebSocket.Message? {
        var failures = 0
        // When the handshake of the connection in use started, when this call opened it.
        var openedAt: ContinuousClock.Instant?
        while true {
            let channel = self.channel
            let ending: APIClientError?
            do {
                if let message = try await channel.receive() { return message }
                ending = nil
            } catch {
                ending = error
            }
            guard let reconnection, let reopen, shouldReconnect(after: ending, closure: channel.closure) else {
                if let ending { throw ending }
                return nil
            }
            // Reopens until a connection is made or the attempts are spent (the last failure is then thrown). The
            // attempts count from the last connection that brought a message or stayed open for `maxDelay`.
            if let openedAt, clock.now - openedAt >= reconnection.maxDelay { failures = 0 }
            while true {
                failures += 1
                guard failures <= reconnection.maxAttempts else { throw ending ?? Self.ended(channel) }
                do {
                    try await clock.sleep(for: reconnection.delay(beforeAttempt: failures))
                } catch {
                    throw .cancelled
                }
                // A close during the wait ends the messages here, before a handshake it would only throw away.
                guard !current.withLock(\.closedByClient) else { return nil }
                let attemptStart = clock.now
                do {
                    let (response, handle) = try await reopen()
                    let replaced = current.withLock { current -> Bool in
                        guard !current.closedByClient else { return false }
                        current.response = response
                        current.handle = handle
                        return true
                    }
                    guard replaced else { return nil }
                    // Not counted a success until a message comes or it lasts: a server that takes every handshake
                    // and drops the connection at once would otherwise be reopened forever, at the shortest wait.
                    openedAt = attemptStart
                    break
                } catch .cancelled {
                    throw .cancelled
                } catch {
                    guard failures < reconnection.maxAttempts else { throw error }
                }
            }
        }
    }

    /// Whether a connection that ended with `error` (or cleanly, as `closure` says) is reopened: not after the
    /// client's own close, nor after a protocol failure or a close the server meant as final.
    private func shouldReconnect(after error: APIClientError?, closure: WebSocket.Closure?) -> Bool {
        guard !current.withLock(\.closedByClient) else { return false }
        if let error {
            guard case .networkError(let failure) = error else { return false }
            return failure.kind == .connectionLost || failure.kind == .cannotConnect
        }
        switch closure?.code {
        case .goingAway, .abnormalClosure, .internalServerError, .other(1012), .other(1013): return true
        default: return false
        }
    }

    private static func ended(_ channel: any WebSocketChannel) -> APIClientError {
        let reason = "the WebSocket closed (\(channel.closure?.code.rawValue ?? 1006)) and could not reconnect"
        return .networkError(
            APIClientError.NetworkFailure(kind: .connectionLost, underlying: WebSocketOpening.Failure(reason)))
    }
}

extension WebSocket {
    /// A WebSocket message: text (valid UTF-8, checked as it arrives) or binary.
    public enum Message: Sendable, Hashable {
        /// A text message.
        case text(String)
        /// A binary message.
        case binary(Data)

        /// The payload's size in bytes (the UTF-8 of a text message).
        package var byteCount: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .binary(let data): data.count
            }
        }
    }

    /// Unread messages' bytes beyond which a socket is not read until its reader catches up (256 KiB): the native
    /// channel's and the test kit's alike.
    package static let unreadLimit = 256 << 10

    /// `reason` cut to the 123 bytes of UTF-8 a close frame has room for (RFC 6455 §5.5), on a character boundary:
    /// what every end of a socket sends with its close code.
    package static func closeFrameReason(_ reason: String) -> String {
        var result = ""
        var count = 0
        for character in reason {
            count += character.utf8.count
            guard count <= 123 else { break }
            result.append(character)
        }
        return result
    }

    /// How a socket ended, as its channel reports it.
    package struct Closure: Sendable, Hashable {
        /// The close code.
        package var code: WebSocket.CloseCode
        /// The reason given with it.
        package var reason: String

        /// A closure with `code` and `reason`.
        package init(code: WebSocket.CloseCode, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// The messages of a ``WebSocket`` as an `AsyncSequence`.
    public struct Messages: AsyncSequence, Sendable {
        /// A message.
        public typealias Element = WebSocket.Message
        fileprivate let socket: WebSocket

        /// An iterator over the messages.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(socket: socket)
        }

        /// Reads the messages one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let socket: WebSocket

            /// The next message, or `nil` once the socket closed.
            public mutating func next() async throws(APIClientError) -> WebSocket.Message? {
                try await socket.receive()
            }
        }
    }
}
