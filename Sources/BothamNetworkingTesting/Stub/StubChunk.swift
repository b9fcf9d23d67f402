import BothamNetworking
import Foundation

/// One chunk of a streamed body, bytes after a delay: of a stub's (``StubResponse/streamed(statusCode:headers:chunks:end:)``)
/// or of a ``MockWebServer`` response's (``MockResponse/streaming(_:end:)``).
///
/// `MockWebServer` waits the delay (measured from the end of the previous chunk, or from the headers for the first
/// one), then writes the bytes as one chunk of `Transfer-Encoding: chunked` and hands it to the socket at once. A
/// chunk without bytes only waits: it is not written, because a zero-length chunk would end the body.
public struct StubChunk: Sendable, Hashable {
    /// The bytes.
    package var bytes: Data
    /// How long after the previous chunk (or the head) it arrives.
    package var delay: Duration

    /// A chunk of `bytes` arriving `delay` after the previous one.
    public init(_ bytes: Data, after delay: Duration = .zero) {
        self.bytes = bytes
        self.delay = delay
    }

    /// A chunk of UTF-8 `text` arriving `delay` after the previous one.
    public init(_ text: String, after delay: Duration = .zero) {
        self.init(Data(text.utf8), after: delay)
    }
}

/// How a streamed stub body ends.
public enum StubStreamEnd: Sendable {
    /// The body is complete.
    case complete
    /// The body breaks off with `error`, for example
    /// `.networkError(APIClientError.NetworkFailure(kind: .connectionLost))` for a dropped connection.
    case failure(APIClientError)
}

extension StubResponse {
    /// A `200` event stream (`Content-Type: text/event-stream`) that sends `events`, each after its delay, then ends
    /// as `end` says (a `.failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost)))` drops it mid-stream).
    ///
    /// ```swift
    /// stubClient.stub(
    ///     with: .serverSentEvents([MockServerSentEvent(id: "1", data: "hello")], end: .failure(.timeout)),
    ///     .serverSentEvents([MockServerSentEvent(id: "2", data: "again")])
    /// )
    /// ```
    public static func serverSentEvents(
        _ events: [MockServerSentEvent], headers: HTTPHeaders = [:], end: StubStreamEnd = .complete
    ) -> StubResponse {
        var headers = headers
        if !headers.contains(.contentType) { headers[.contentType] = "text/event-stream" }
        return .streamed(
            headers: headers, chunks: events.map { StubChunk($0.wireText, after: $0.delay) }, end: end)
    }
}
