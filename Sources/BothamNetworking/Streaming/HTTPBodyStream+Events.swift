import Foundation

extension HTTPBodyStream {
    /// The body as Server-Sent Events, parsed as the WHATWG HTML specification's event stream interpretation says.
    ///
    /// This reads one response; ``BothamAPIClient/eventSource(_:policy:)`` also reconnects with `Last-Event-ID`.
    public var events: Decoded<ServerSentEvent> {
        Decoded { [self] in
            Decoded.AsyncIterator(ChunkDecoding(chunks: makeAsyncIterator(), decoder: ServerSentEvent.Parser()))
        }
    }
}
