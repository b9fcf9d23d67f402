import BothamNetworking
import Foundation

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
