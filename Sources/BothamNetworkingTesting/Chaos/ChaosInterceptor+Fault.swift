import BothamNetworking

extension ChaosInterceptor {
    /// A fault a ``ChaosInterceptor`` injects into one request: the faults `MockWebServer`'s socket policies make on a
    /// real connection, made in the client so a staging build can rehearse them against real servers.
    ///
    /// | Fault | What the caller sees | The `MockWebServer` fault it stands for |
    /// |---|---|---|
    /// | ``delay(_:)`` | the response, late; `APIClientError.timeout` when the delay reaches the request's timeout | `withHeadersDelay`, `noResponse` |
    /// | ``fail(_:)`` | `APIClientError.networkError(_:)` of that kind; nothing is sent | `resetConnection` (`.connectionLost`), `disconnectAtStart` and `malformedStatusLine` (`.badServerResponse`), a closed port (`.cannotConnect`) |
    /// | ``truncateBody`` | `APIClientError.networkError(_:)` of kind `connectionLost`, or a stream that ends with it after half the body | `disconnectDuringBody`, `wrongContentLength`, `truncatedChunkedBody` |
    /// | ``status(_:)`` | a response with that status and no body; nothing is sent | a dispatcher answering `503` |
    ///
    /// A failure the chaos interceptor makes carries the fault itself as its `APIClientError.NetworkFailure.underlying`
    /// error, so logs and tests can tell a rehearsed fault from a real one:
    ///
    /// ```swift
    /// if case .networkError(let failure) = error, failure.underlying is ChaosInterceptor.Fault { /* rehearsed */ }
    /// ```
    ///
    /// Each fault fails the same way on both transports.
    public enum Fault: Error, Sendable, Hashable, CustomStringConvertible {
        /// Wait this long (on the call's clock, as retries do), then send the request. A delay
        /// that reaches the request's own timeout (`HTTPRequest.timeout`) waits that timeout and fails with
        /// `APIClientError.timeout` without sending, as a server that slow would.
        case delay(Duration)
        /// Fail with `APIClientError.networkError(_:)` of this kind without sending the request.
        case fail(APIClientError.NetworkFailure.Kind)
        /// Send the request, then lose the connection half-way through the response body: a body in memory or in a file
        /// fails with `APIClientError.networkError(_:)` of kind `connectionLost`; a streamed body
        /// delivers its first half (of its `Content-Length`, or of its first chunk when it declares none) and then ends
        /// with that error. A response without a body is complete, and passes unchanged (as with `MockWebServer`).
        case truncateBody
        /// Answer with this status and an empty body without sending the request (a `503` to rehearse an outage; the
        /// client's validation and retry policy see it like any response).
        case status(Int)

        /// `delay(1.5 seconds)`, `fail(connectionLost)`, `truncateBody`, `status(503)`: how logs show the fault, and the
        /// description of a failure it made.
        public var description: String {
            switch self {
            case .delay(let duration): return "delay(\(duration))"
            case .fail(let kind): return "fail(\(kind))"
            case .truncateBody: return "truncateBody"
            case .status(let code): return "status(\(code))"
            }
        }
    }
}
