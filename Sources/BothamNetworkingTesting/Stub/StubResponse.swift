import BothamNetworking
import Foundation

/// What a stub answers: a response or a transport error, optionally after some latency.
public struct StubResponse: Sendable {
    enum Outcome: Sendable {
        case response(statusCode: Int, headers: HTTPHeaders, body: Data)
        case streamed(statusCode: Int, headers: HTTPHeaders, chunks: [StubChunk], end: StubStreamEnd)
        case failure(APIClientError)
        case webSocket(protocol: String?, script: @Sendable (WebSocketPeer) async throws -> Void)
    }

    let outcome: Outcome
    /// How long the transport takes to answer (virtual by default; see ``StubHTTPClient/LatencyMode``).
    package private(set) var latency: Duration = .zero

    init(outcome: Outcome) {
        self.outcome = outcome
    }

    /// A response with a status code, headers and body.
    public static func response(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data())
        -> StubResponse
    {
        StubResponse(outcome: .response(statusCode: statusCode, headers: headers, body: body))
    }

    /// A response with a UTF-8 text body.
    public static func text(_ text: String, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse {
        var headers = headers
        if !headers.contains(.contentType) { headers[.contentType] = "text/plain; charset=utf-8" }
        return .response(statusCode: statusCode, headers: headers, body: Data(text.utf8))
    }

    /// A response with a JSON body and `Content-Type: application/json`.
    public static func json(_ value: JSONValue, statusCode: Int = 200, headers: HTTPHeaders = [:]) -> StubResponse {
        var headers = headers
        if !headers.contains(.contentType) { headers[.contentType] = "application/json" }
        return .response(statusCode: statusCode, headers: headers, body: (try? value.encoded()) ?? Data())
    }

    /// A response whose body arrives as `chunks`, each after its delay (virtual by default, like latency), then
    /// ends as `end` says: complete, or with an error such as a dropped connection.
    ///
    /// ```swift
    /// stubClient.stub(with: .streamed(chunks: [StubChunk("data: he"), StubChunk("llo\n\n", after: .seconds(1))]))
    /// ```
    ///
    /// A streaming call (`BothamAPIClient.stream(_:callTimeout:)`) reads the chunks as they come,
    /// with back-pressure; any other call gets them joined into one body (or the `end` error).
    public static func streamed(
        statusCode: Int = 200, headers: HTTPHeaders = [:], chunks: [StubChunk], end: StubStreamEnd = .complete
    ) -> StubResponse {
        StubResponse(outcome: .streamed(statusCode: statusCode, headers: headers, chunks: chunks, end: end))
    }

    /// A transport failure, for example `.networkError(APIClientError.NetworkFailure(kind: .cannotConnect))` or `.timeout`.
    public static func failure(_ error: APIClientError) -> StubResponse {
        StubResponse(outcome: .failure(error))
    }

    /// This answer, given after `latency`.
    public func delayed(by latency: Duration) -> StubResponse {
        var copy = self
        copy.latency = latency
        return copy
    }
}
