import BothamNetworking
import Foundation

/// A scripted HTTP response for ``MockWebServer``: status, headers, body, and how to deliver them.
///
/// Build one with the initializer and the `with…` methods, each of which returns a modified copy:
///
/// ```swift
/// let response = MockResponse(statusCode: 201)
///     .withHeader("Location", "/users/42")
///     .withJSONBody(#"{"id": 42}"#)
///     .chunked(chunkSize: 4)
///     .withHeadersDelay(.milliseconds(50))
/// ```
///
/// A body can also be streamed, part by part with a delay before each (``streaming(_:end:)``), for example as
/// Server-Sent Events (``serverSentEvents(_:end:)``).
///
/// Unless the response is chunked or already has one, the server adds `Content-Length` for the body. Responses to
/// `HEAD` requests, and `1xx`, `204` and `304` responses, are sent without a body. Header names and values are
/// written exactly as given, in order and with their spelling (no validation), so a test can also produce unusual
/// headers on purpose.
public struct MockResponse: Sendable {
    /// The status code, written as is in the status line.
    package var statusCode: Int
    /// The reason phrase; `nil` (the default) uses the standard phrase for ``statusCode``.
    package var reasonPhrase: String?
    /// The header fields, in order, repeats allowed.
    package var headers: HTTPHeaders
    /// The body bytes (not used by a streamed body, ``streaming(_:end:)``).
    package var body: Data
    /// The chunk size for `Transfer-Encoding: chunked`, or `nil` to send the body with `Content-Length`
    /// (not used when ``streamedBody`` is set: each part is its own chunk).
    package var chunkSize: Int?
    /// The body as a script of parts, each written after its own delay as its own chunk of
    /// `Transfer-Encoding: chunked`, or `nil` (the default) to send ``body``. Set it with
    /// ``streaming(_:end:)``.
    package var streamedBody: [StubChunk]?
    /// How a streamed body ends: ``StreamEnd/complete`` (the default) or ``StreamEnd/disconnect``. Only used
    /// when ``streamedBody`` is set.
    package var streamEnd: StreamEnd
    /// How long to wait after reading the request before sending the status line and headers.
    package var headersDelay: Duration
    /// How fast to send the body, or `nil` for as fast as the socket allows.
    package var throttle: Throttle?
    /// The connection behaviour or fault to apply; ``SocketPolicy/keepOpen`` by default.
    package var socketPolicy: SocketPolicy
    /// Whether to send `Connection: close` and close the connection after this response.
    package var closesConnectionAfterResponse: Bool
    /// Interim (1xx) responses sent, in order, before this one, for example `[103]` for Early Hints.
    package var interimStatusCodes: [Int] = []
    /// The WebSocket to run after a `101`, or `nil` for a plain response. Set it with
    /// ``webSocket(subprotocol:compression:_:)``.
    package var webSocket: MockWebSocketScript?

    /// A body transfer rate: ``bytesPerPeriod`` bytes, then a pause of ``period``, and so on.
    package struct Throttle: Sendable, Hashable {
        /// How many bytes to send before each pause (at least 1).
        package var bytesPerPeriod: Int
        /// How long to pause between slices.
        package var period: Duration

        /// Creates a throttle of `bytesPerPeriod` bytes per `period`.
        package init(bytesPerPeriod: Int, period: Duration) {
            self.bytesPerPeriod = max(1, bytesPerPeriod)
            self.period = period
        }
    }

    /// Creates a response; with no arguments, an empty `200 OK`.
    public init(
        statusCode: Int = 200,
        reasonPhrase: String? = nil,
        headers: HTTPHeaders = [:],
        body: Data = Data()
    ) {
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
        self.chunkSize = nil
        self.streamedBody = nil
        self.streamEnd = .complete
        self.headersDelay = .zero
        self.throttle = nil
        self.socketPolicy = .keepOpen
        self.closesConnectionAfterResponse = false
    }

    /// The reason phrase that will be sent: ``reasonPhrase`` or the standard one for ``statusCode``.
    package var effectiveReasonPhrase: String {
        reasonPhrase ?? HTTPReasonPhrase.phrase(for: statusCode)
    }
}
