import Foundation

extension HTTPBodyStream {
    /// Values decoded from a streamed body while it arrives: its ``lines``, its ``events`` or the values of its
    /// ``jsonLines(decoding:decoder:maxLineBytes:)``.
    ///
    /// Reading is one pass over the body: a decoding error ends the sequence (and the request) after the values before
    /// it, and after an error or the end of the body `next()` returns `nil`.
    public struct Decoded<Value: Sendable>: AsyncSequence, Sendable {
        let start: @Sendable () -> AsyncIterator

        /// Starts reading values.
        public func makeAsyncIterator() -> AsyncIterator {
            start()
        }

        /// Reads values one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let step: () async throws(APIClientError) -> Value?

            /// The next value, or `nil` at the end of the body (and after an error has been thrown).
            public mutating func next() async throws(APIClientError) -> Value? {
                try await step()
            }
        }
    }
}

extension HTTPBodyStream.Decoded.AsyncIterator {
    /// An iterator handing out what `decoding` decodes.
    init<Decoder: ChunkDecoder>(_ decoding: ChunkDecoding<Decoder>) where Decoder.Value == Value {
        let box = DecodingBox(decoding)
        step = { () async throws(APIClientError) -> Value? in try await box.decoding.next() }
    }
}

/// The mutable state of one iterator (an iterator is read by one task at a time).
final class DecodingBox<State> {
    var decoding: State

    init(_ decoding: State) {
        self.decoding = decoding
    }
}
