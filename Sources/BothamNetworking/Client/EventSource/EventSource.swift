import Foundation

/// A Server-Sent Events client that reconnects, as the WHATWG "Server-sent events" model describes: an endless
/// `AsyncSequence` of ``ServerSentEvent``s across connections.
///
/// ```swift
/// for try await event in apiClient.eventSource(apiClient.request(.get, "/notifications")) {
///     print(event.type, event.data)
/// }
/// ```
///
/// Each connection is an ordinary streaming call (``BothamAPIClient/stream(_:callTimeout:)``), so it goes through
/// every interceptor again: a token refreshed since the last connection is used. It asks for `text/event-stream`
/// with `Cache-Control: no-cache` and, once an event has set an ID, `Last-Event-ID`, so the server can resume where
/// the stream broke and no event is lost or repeated. After a dropped connection or the end of the stream it waits
/// the reconnection time and connects again (see ``EventSource/Policy``). The sequence ends normally on a
/// `204 No Content`; it ends with an ``APIClientError`` on a status that is not retried, on a response that is not
/// `text/event-stream`, when cancelled, or when reconnections keep failing.
public struct EventSource: AsyncSequence, Sendable {

    let client: BothamAPIClient
    let request: HTTPRequest
    let policy: EventSource.Policy

    /// Starts connecting (on the first call of `next()`).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self, lastEventID: policy.lastEventID, clock: client.configuration.clock)
    }

    /// Reads events, reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {

        let source: EventSource
        /// The client's clock when iteration started: the reconnection waits run on it.
        let clock: any HTTPClock
        var events: ChunkDecoding<ServerSentEvent.Parser>?
        /// The last event ID string, sent as `Last-Event-ID` on reconnection.
        package private(set) var lastEventID: String
        /// The reconnection time the stream asked for, if it did.
        package private(set) var reconnectionTime: Duration?
        /// How many connections have been made.
        package private(set) var connections = 0
        var failures = 0
        var deliveredOnThisConnection = false
        var finished = false

        init(source: EventSource, lastEventID: String, clock: any HTTPClock) {
            self.source = source
            self.lastEventID = lastEventID
            self.clock = clock
        }

        /// The next event, waiting and reconnecting as needed; `nil` once the server answered `204 No Content`.
        public mutating func next() async throws(APIClientError) -> ServerSentEvent? {
            do {
                return try await nextEvent()
            } catch {
                // After an error the sequence is over, as AsyncIteratorProtocol requires.
                finished = true
                events = nil
                throw error
            }
        }

        private mutating func nextEvent() async throws(APIClientError) -> ServerSentEvent? {
            while !finished {
                if Task.isCancelled { throw .cancelled }
                if var current = events {
                    do {
                        let event = try await current.next()
                        remember(current.decoder)
                        if let event {
                            events = current
                            deliveredOnThisConnection = true
                            failures = 0
                            return event
                        }
                        try await connectionEnded(
                            .networkError(
                                APIClientError.NetworkFailure(
                                    kind: .connectionLost, underlying: HTTPBodyStream.DecodingError.streamEnded)))
                    } catch .cancelled {
                        throw .cancelled
                    } catch {
                        remember(current.decoder)
                        guard Self.isTransient(error) else { throw error }
                        try await connectionEnded(error)
                    }
                    continue
                }
                try await connect()
            }
            return nil
        }

        private mutating func remember(_ parser: ServerSentEvent.Parser) {
            lastEventID = parser.lastEventID
            if let time = parser.reconnectionTime { reconnectionTime = time }
        }

        /// The connection is gone: count a failure unless it delivered events, then wait before the next one.
        private mutating func connectionEnded(_ error: APIClientError) async throws(APIClientError) {
            events = nil
            if !deliveredOnThisConnection { failures += 1 }
            deliveredOnThisConnection = false
            try await wait(after: error)
        }

        private mutating func wait(after error: APIClientError) async throws(APIClientError) {
            let policy = source.policy
            guard failures <= Swift.max(0, policy.maxConsecutiveFailures) else {
                throw .retryLimitExceeded(attempts: connections, lastOutcome: .failure(error))
            }
            let delay = policy.delay(
                afterFailures: failures, reconnectionTime: reconnectionTime ?? policy.defaultReconnectionTime)
            do {
                if let sleep = policy.sleep { try await sleep(delay) } else { try await clock.sleep(for: delay) }
            } catch {
                throw .cancelled
            }
        }

        private mutating func connect() async throws(APIClientError) {
            connections += 1
            var headers: HTTPHeaders = [:]
            if !source.request.headers.contains(.accept) { headers[.accept] = "text/event-stream" }
            if !source.request.headers.contains(.cacheControl) { headers[.cacheControl] = "no-cache" }
            var request = source.request.appendingHeaders(headers)
            if !lastEventID.isEmpty { request = request.withHeader(HTTPFieldName("Last-Event-ID"), lastEventID) }
            let response: HTTPStreamedResponse
            do {
                response = try await source.client.stream(request)
            } catch {
                if case .httpResponseError(let rejected) = error,
                    !source.policy.retryableStatusCodes.contains(rejected.statusCode)
                {
                    throw error
                }
                guard Self.isTransient(error) else { throw error }
                failures += 1
                try await wait(after: error)
                return
            }
            if response.head.statusCode == 204 {
                finished = true
                return
            }
            let contentType = response.head.headers[.contentType]
            guard let contentType, MediaType.essence(contentType) == "text/event-stream" else {
                response.body.cancel()
                throw .parsingError(
                    body: Data(), underlying: HTTPBodyStream.DecodingError.notAnEventStream(contentType: contentType))
            }
            events = ChunkDecoding(
                chunks: response.body.makeAsyncIterator(), decoder: ServerSentEvent.Parser(lastEventID: lastEventID))
        }

        /// Failures worth reconnecting after.
        static func isTransient(_ error: APIClientError) -> Bool {
            switch error {
            case .networkError, .timeout, .httpResponseError: return true
            case .retryLimitExceeded(_, .failure(let last)): return isTransient(last)
            case .retryLimitExceeded(_, .success): return true
            default: return false
            }
        }
    }
}

extension BothamAPIClient {
    /// A reconnecting Server-Sent Events source for `request`; see ``EventSource``.
    public func eventSource(_ request: HTTPRequest, policy: EventSource.Policy = EventSource.Policy()) -> EventSource {
        EventSource(client: self, request: request, policy: policy)
    }

}
