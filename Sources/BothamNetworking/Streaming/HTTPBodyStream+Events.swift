import Foundation

extension HTTPBodyStream {
    /// The body as Server-Sent Events, parsed as the WHATWG HTML specification's event stream interpretation says.
    ///
    /// This reads one response; ``BothamAPIClient/eventSource(_:policy:)`` also reconnects with `Last-Event-ID`.
    public var events: Events { Events(stream: self, lastEventID: "") }

    /// The events of a streamed body; see ``HTTPBodyStream/events``.
    public struct Events: AsyncSequence, Sendable {

        let stream: HTTPBodyStream
        let lastEventID: String

        /// Starts reading events.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: stream.makeAsyncIterator(), parser: ServerSentEvent.Parser(lastEventID: lastEventID))
        }

        /// Reads events one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {

            var decoding: ChunkDecoding<ServerSentEvent.Parser>

            /// The parser, with the last event ID and reconnection time seen so far.
            package var parser: ServerSentEvent.Parser { decoding.decoder }

            init(chunks: HTTPBodyStream.AsyncIterator, parser: ServerSentEvent.Parser) {
                decoding = ChunkDecoding(chunks: chunks, decoder: parser)
            }

            /// The next event, or `nil` at the end of the body (an event not ended by a blank line is dropped, and
            /// after an error has been thrown the sequence is over).
            public mutating func next() async throws(APIClientError) -> ServerSentEvent? {
                try await decoding.next()
            }
        }
    }
}
