extension HTTPBodyStream {
    /// Why a streamed body could not be read as asked (carried by the ``APIClientError`` that ends the stream).
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A line was longer than the limit.
        case lineTooLong(limit: Int)
        /// The body was longer than the limit of ``HTTPBodyStream/collect(upTo:)``.
        case bodyTooLarge(limit: Int)
        /// The stream ended (an ``EventSource`` reconnects after it).
        case streamEnded
        /// An event stream answered with another `Content-Type`.
        case notAnEventStream(contentType: String?)

        /// A sentence for people.
        public var description: String {
            switch self {
            case .lineTooLong(let limit): return "a line of the streamed body is longer than \(limit) bytes"
            case .bodyTooLarge(let limit): return "the streamed body is larger than \(limit) bytes"
            case .streamEnded: return "the stream ended"
            case .notAnEventStream(let contentType):
                return "the response is not an event stream (Content-Type: \(contentType ?? "none"))"
            }
        }
    }
}
