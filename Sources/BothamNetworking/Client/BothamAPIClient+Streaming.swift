import Foundation

extension BothamAPIClient {
    /// Sends `request` and returns as soon as the response head arrives, with the body as an ``HTTPBodyStream``.
    ///
    /// ```swift
    /// let response = try await apiClient.stream(apiClient.request(.get, "/events"))
    /// for try await line in response.lines { print(line) }
    /// ```
    ///
    /// The whole chain runs as for `send(_:)`: request interceptors, the ``HTTPInterceptor`` onion, response
    /// interceptors and validation see the head before the body streams, so a 401 or a 503 can still be retried
    /// (``ResponseInterceptorResult/retry``, ``RetryPolicy``) or refresh a token; a retry is possible until this
    /// method returns, never after the first body byte reached you. A response that fails validation comes back as
    /// ``APIClientError/httpResponseError(_:)`` with the first MiB of its body read into ``HTTPResponse/body``.
    ///
    /// Time limits: the request's ``HTTPRequest/timeout`` (or the transport's default) bounds the wait for the head
    /// and each wait for the next chunk (an idle timeout, sub-second values work), never the whole stream, so a
    /// healthy long-lived stream is not cut off — as long as a chunk (or an SSE comment used as a keep-alive) comes at
    /// least that often: give a quiet event stream a longer `timeout` (`withTimeout(_:)`). `callTimeout`, when given,
    /// bounds the whole call, body included, and ends it with ``APIClientError/timeout``, in place of the
    /// configuration's ``Configuration/callTimeout`` (which bounds it otherwise, if set).
    ///
    /// On ``URLSessionHTTPClient`` each streaming call has a session of its own (so a slow reader holds back no other
    /// call), and connections are not reused between streaming calls.
    ///
    /// A transport that does not stream (a stub written before streaming existed) still works: its in-memory body
    /// is handed over as one chunk.
    public func stream(_ request: HTTPRequest, callTimeout: Duration? = nil) async throws(APIClientError)
        -> HTTPStreamedResponse
    {
        let streamingRequest = request.withResponseDestination(.stream)
        var configuration = configuration
        guard let deadline = callTimeout ?? configuration.callTimeout else {
            return try await Self.streamedResponse(from: send(streamingRequest))
        }
        // The stream's deadline bounds the whole call, head and body: the pipeline runs no timer of its own.
        configuration.callTimeout = nil
        let pipeline = makePipeline(configuration)
        let timer = StreamDeadline(after: deadline, on: configuration.clock)
        let call = Task { await pipeline.run(streamingRequest, timedOut: { timer.hasExpired }) }
        timer.start { call.cancel() }
        let result = await withTaskCancellationHandler {
            await call.value
        } onCancel: {
            call.cancel()
        }
        if case .failure(.cancelled) = result, timer.hasExpired { throw .timeout }
        if case .failure = result { timer.cancel() }
        let response = try await Self.streamedResponse(from: result)
        timer.attach(response.body)
        return response
    }

    /// Sends `method path` and streams the response body; see ``stream(_:callTimeout:)``.
    public func stream(
        _ method: HTTPMethod = .get,
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        body: HTTPBody? = nil,
        callTimeout: Duration? = nil
    ) async throws(APIClientError) -> HTTPStreamedResponse {
        try await stream(
            request(method, path, parameters: parameters, headers: headers, body: body), callTimeout: callTimeout)
    }

    /// The largest part of a rejected streamed response's body kept in its error.
    static let streamedErrorBodyLimit = 1 << 20

    private static func streamedResponse(from result: Result<HTTPResponse, APIClientError>) async throws(APIClientError)
        -> HTTPStreamedResponse
    {
        switch result {
        case .success(let response):
            let body = response.bodyStream ?? HTTPBodyStream(data: response.body)
            return HTTPStreamedResponse(head: response.withBody(Data()), body: body)
        case .failure(let error):
            throw await error.collectingStreamedBodies(limit: streamedErrorBodyLimit)
        }
    }
}

extension APIClientError {
    /// The error with the bodies of its streamed responses read into memory (up to `limit` bytes each), so that a
    /// rejected response's body is there to read like any other's.
    func collectingStreamedBodies(limit: Int) async -> APIClientError {
        switch self {
        case .httpResponseError(let response):
            return .httpResponseError(await response.collectingStream(limit: limit))
        case .retryLimitExceeded(let attempts, .success(let response)):
            return .retryLimitExceeded(
                attempts: attempts, lastOutcome: .success(await response.collectingStream(limit: limit)))
        case .retryLimitExceeded(let attempts, .failure(let error)):
            return .retryLimitExceeded(
                attempts: attempts, lastOutcome: .failure(await error.collectingStreamedBodies(limit: limit)))
        default:
            return self
        }
    }
}

extension HTTPResponse {
    /// This response with (the first `limit` bytes of) its streamed body in ``body``; the stream is ended.
    func collectingStream(limit: Int) async -> HTTPResponse {
        guard let bodyStream else { return self }
        var data = Data()
        var iterator = bodyStream.makeAsyncIterator()
        while data.count < limit, let chunk = try? await iterator.next() {
            data.append(chunk.prefix(limit - data.count))
        }
        bodyStream.cancel()
        return withBody(data)
    }
}
