import Foundation

extension MockResponse {
    /// How a streamed body ends.
    public enum StreamEnd: Sendable, Hashable {
        /// Send the terminating zero-length chunk; the connection is then kept or closed by the normal rules.
        case complete
        /// Close the connection right after the last part, without the terminating chunk: the client sees the
        /// stream drop in the middle of the body. The response does not announce it with `Connection: close`.
        case disconnect
    }

    /// Returns a copy whose body is streamed: each of `parts` is written after its own delay, as its own chunk of
    /// `Transfer-Encoding: chunked`, and `end` says how the body ends.
    ///
    /// ```swift
    /// let response = MockResponse()
    ///     .withHeader("Content-Type", "application/x-ndjson")
    ///     .streaming([.init(Data("a\n".utf8)), .init(Data("b\n".utf8), after: .milliseconds(50))], end: .complete)
    /// ```
    ///
    /// The delays are real waits of the connection's thread, cut short when the server shuts down; other
    /// connections are not held up. The streamed body replaces the body (which is emptied) and ignores
    /// ``chunked(chunkSize:)``; ``throttled(bytes:per:)`` and the ``SocketPolicy`` still apply (``SocketPolicy/disconnectDuringBody``
    /// sends half the wire bytes of the whole script, ``SocketPolicy/truncatedChunkedBody`` the chunks of the
    /// first half of the bytes). An HTTP/1.0 client, which does not understand chunked coding, gets the parts as
    /// they are and the end of the body is marked by closing the connection.
    public func streaming(_ parts: [StubChunk], end: StreamEnd = .complete) -> MockResponse {
        var copy = self
        copy.body = Data()
        copy.streamedBody = parts
        copy.streamEnd = end
        return copy
    }

    /// A `200 OK` streaming `events` as Server-Sent Events: `Content-Type: text/event-stream`,
    /// `Cache-Control: no-cache`, and each event in the `text/event-stream` format as one streamed part written
    /// after the event's delay.
    ///
    /// ```swift
    /// server.enqueue(
    ///     .serverSentEvents([
    ///         MockServerSentEvent(id: "1", event: "greeting", data: "hello"),
    ///         MockServerSentEvent(data: "second", after: .milliseconds(100)),
    ///     ])
    /// )
    /// ```
    ///
    /// With `end: .disconnect` the connection drops after the last event, as when a server goes away and the
    /// client is expected to reconnect (sending `Last-Event-ID`).
    public static func serverSentEvents(_ events: [MockServerSentEvent], end: StreamEnd = .complete) -> MockResponse {
        MockResponse()
            .withHeader("Content-Type", "text/event-stream")
            .withHeader("Cache-Control", "no-cache")
            .streaming(events.map { StubChunk(Data($0.wireText.utf8), after: $0.delay) }, end: end)
    }
}
