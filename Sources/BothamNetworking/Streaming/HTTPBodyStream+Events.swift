import Foundation

extension HTTPBodyStream {
    /// The body as Server-Sent Events, parsed as ``ServerSentEventParser`` describes.
    ///
    /// This reads one response; ``BothamAPIClient/eventSource(_:policy:)`` also reconnects with `Last-Event-ID`.
    public var events: Events { Events(stream: self, lastEventID: "") }

    /// The events of a streamed body; see ``HTTPBodyStream/events``.
    public struct Events: AsyncSequence, Sendable {
        /// What the sequence yields.
        public typealias Element = ServerSentEvent
        /// The error that ends the sequence early.
        public typealias Failure = APIClientError

        let stream: HTTPBodyStream
        let lastEventID: String

        /// Starts reading events.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: stream.makeAsyncIterator(), parser: ServerSentEventParser(lastEventID: lastEventID))
        }

        /// Reads events one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// What the sequence yields.
            public typealias Element = ServerSentEvent
            /// The error that ends the sequence early.
            public typealias Failure = APIClientError

            var chunks: HTTPBodyStream.AsyncIterator
            /// The parser, with the last event ID and reconnection time seen so far.
            public private(set) var parser: ServerSentEventParser
            var ready: [ServerSentEvent] = []
            var readyIndex = 0

            init(chunks: HTTPBodyStream.AsyncIterator, parser: ServerSentEventParser) {
                self.chunks = chunks
                self.parser = parser
            }

            var failure: APIClientError?
            var ended = false

            /// The next event, or `nil` at the end of the body (an event not ended by a blank line is dropped, and
            /// after an error has been thrown the sequence is over).
            public mutating func next() async throws(APIClientError) -> ServerSentEvent? {
                while true {
                    if readyIndex < ready.count {
                        defer { readyIndex += 1 }
                        return ready[readyIndex]
                    }
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                    if let failure {
                        self.failure = nil
                        ended = true
                        throw failure
                    }
                    if ended { return nil }
                    let chunk: Data?
                    do {
                        chunk = try await chunks.next()
                    } catch {
                        ended = true
                        throw error
                    }
                    guard let chunk else {
                        ended = true
                        return nil
                    }
                    var events: [ServerSentEvent] = []
                    do {
                        try chunk.withBytes { (bytes) throws(APIClientError) in
                            try parser.feed(bytes) { events.append($0) }
                        }
                    } catch {
                        failure = error
                        chunks.stream.cancel()
                    }
                    ready = events
                }
            }
        }
    }
}
