import Foundation

/// The transport seam: sends one request and returns the server's response.
///
/// A transport only transports. Validation, URL scheme checks, interceptors and retries live in
/// ``BothamAPIClient``, so an `HTTPClient` is easy to write and to replace in tests (see `StubHTTPClient` in
/// `BothamNetworkingTesting`).
///
/// ## What a transport is given
///
/// ``BothamAPIClient`` hands ``send(_:)`` a *prepared* request, checked and encoded once per send:
///
/// - `HTTPRequest.resolvedURL()` returns the URL preparation resolved (an `http` or `https` URL with a host),
///   without resolving it again.
/// - ``HTTPRequest/method`` is a valid token, every header name is a token and every header value is free of CR,
///   LF, NUL and other control characters.
/// - ``HTTPRequest/body`` is `nil`, raw bytes (``HTTPRequest/bodyData()`` returns them, encoding nothing), a file
///   (``HTTPBody/fileURL``, to upload from the file as it is sent) or a body streamed from a sequence; its
///   `Content-Type` is already among the headers.
/// - ``HTTPRequest/responseDestination`` is ``ResponseBodyDestination/memory``, ``ResponseBodyDestination/stream``
///   (a transport that streams answers with ``HTTPResponse/bodyStream``; one that does not returns the body in
///   memory) or a ``ResponseBodyDestination/file(_:options:)`` destination, never a directory. A file destination
///   is a fresh file the client owns for this attempt: the transport writes the body there (or returns it in memory,
///   and the client writes it) and never moves or deletes it; the client moves it into the caller's destination or
///   removes it when the call ends.
/// - ``HTTPRequest/timeout`` bounds this one send; `nil` means the transport's default.
/// - ``HTTPRequest/headers`` are the fields to send, as the innermost interceptor saw them. The transports of this
///   package add no field of their own beyond framing (`Host`, `Content-Length`, `Transfer-Encoding`,
///   `Connection`): the fields they would add (`User-Agent`, `Accept-Encoding`, …) were put in the request at
///   preparation, where every interceptor sees them. A transport of yours should do the same, or document what it
///   adds.
///
/// The same holds when an ``HTTPInterceptor`` changed the request on its way: the client prepares the changed
/// request again before the transport sees it. The transports of this package prepare a request they are given
/// directly in the same way, so they need no checks of their own.
///
/// A transport reports failures as ``APIClientError``: ``APIClientError/networkError(_:)`` for network failures,
/// ``APIClientError/timeout`` when ``HTTPRequest/timeout`` ran out, ``APIClientError/cancelled`` when the calling
/// task was cancelled, and ``APIClientError/httpClientError(underlying:)`` for anything else. Any status code,
/// 4xx and 5xx included, is a response, not an error.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the response.
    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse
}

extension HTTPRequest {
    /// The body's bytes as they go on the wire, or `nil` when there is no body.
    ///
    /// On a prepared request (what a transport is given) the body already is those bytes, and they are returned as
    /// they are; on any other request the body is encoded for its `Content-Type` first.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the body cannot be encoded.
    public func bodyData() throws(APIClientError) -> Data? {
        guard let body else { return nil }
        if case .data(let data, _) = body.storage { return data }
        return try body.encoded(forContentType: headers[.contentType]).data
    }
}
