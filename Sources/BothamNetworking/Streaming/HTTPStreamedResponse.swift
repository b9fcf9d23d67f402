import Foundation

/// The answer to a streaming call: the response head, available at once, and the body, read as it arrives.
///
/// ```swift
/// let response = try await apiClient.stream(.post, "/v1/chat/completions", body: ["stream": true])
/// print(response.head.statusCode, response.head.headers[.contentType] ?? "")
/// for try await event in response.events {
///     print(event.data, terminator: "")
/// }
/// ```
public struct HTTPStreamedResponse: Sendable {
    /// The head: status, headers, final URL and the request that produced it (its ``HTTPResponse/body`` is empty).
    public let head: HTTPResponse
    /// The body, as chunks of bytes.
    public let body: HTTPBodyStream

    /// Creates a streamed response.
    package init(head: HTTPResponse, body: HTTPBodyStream) {
        self.head = head
        self.body = body
    }

    /// The body as lines of text; see ``HTTPBodyStream/lines``.
    public var lines: HTTPBodyStream.Decoded<String> { body.lines }
    /// The body as Server-Sent Events; see ``HTTPBodyStream/events``.
    public var events: HTTPBodyStream.Decoded<ServerSentEvent> { body.events }

    /// The body as JSON Lines; see ``HTTPBodyStream/jsonLines(decoding:decoder:maxLineBytes:)``.
    public func jsonLines<T: Decodable & Sendable>(decoding type: T.Type, decoder: JSONDecoder = JSONDecoder())
        -> HTTPBodyStream.Decoded<T>
    {
        body.jsonLines(decoding: type, decoder: decoder)
    }

    /// Reads the whole body into an ordinary ``HTTPResponse``.
    package func collected(upTo limit: Int = 64 << 20) async throws(APIClientError) -> HTTPResponse {
        head.withBody(try await body.collect(upTo: limit))
    }
}
