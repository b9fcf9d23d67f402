import Foundation

extension BothamAPIClient {
    /// Sends `request` and reports the progress of its upload and download to `progress`.
    ///
    /// `progress` runs on the thread that reports (for ``URLSessionHTTPClient``, the session's delegate queue), so
    /// keep it short. Reports are monotonic per direction and, when the call succeeds, end at the total.
    public func send(
        _ request: HTTPRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async -> Result<HTTPResponse, APIClientError> {
        let reporter = TransferProgress.Reporter(progress)
        return await TransferProgress.Reporter.$current.withValue(reporter) { await send(request) }
    }

    /// Downloads `GET path` into `destination`, streaming the body to disk (memory stays bounded whatever its size).
    ///
    /// ```swift
    /// let result = await apiClient.download("/backups/latest", to: .file(backupURL, options: [.replaceExistingFile]))
    /// let file = try result.get().bodyFileURL
    /// ```
    ///
    /// The call goes through every interceptor, the retry budget and the validation like any other. On success the
    /// response's ``HTTPResponse/bodyFileURL`` is the file and its ``HTTPResponse/body`` is empty. On failure
    /// (network error, timeout, cancellation, a rejected status) no file is left behind.
    public func download(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        to destination: ResponseBodyDestination,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await download(
            request(.get, path, parameters: parameters, headers: headers), to: destination, progress: progress)
    }

    /// Sends `request` with its body going to `destination`; see ``download(_:parameters:headers:to:progress:)``.
    public func download(
        _ request: HTTPRequest,
        to destination: ResponseBodyDestination,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        await sendReporting(request.withResponseDestination(destination), progress: progress)
    }

    /// Uploads the file at `fileURL` as the body of `method path` (by default `POST`), read from disk as it is sent.
    ///
    /// ```swift
    /// let result = await apiClient.upload("/videos", fromFile: videoURL, contentType: "video/mp4") { progress in
    ///     print(progress.fractionCompleted ?? 0)
    /// }
    /// ```
    public func upload(
        _ path: String,
        method: HTTPMethod = .post,
        fromFile fileURL: URL,
        contentType: String? = nil,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        let body = HTTPBody.file(fileURL, contentType: contentType)
        let request = request(method, path, parameters: parameters, headers: headers, body: body)
        return await sendReporting(request, progress: progress)
    }

    /// Starts sending `request` and returns a handle whose ``TransferCall/progress`` stream follows it.
    ///
    /// ```swift
    /// let call = apiClient.startTransfer(apiClient.request(.get, "/big.iso").withResponseDestination(.file(isoURL)))
    /// for await progress in call.progress { print(progress) }
    /// let response = try await call.result.get()
    /// ```
    public func startTransfer(_ request: HTTPRequest) -> TransferCall {
        let (stream, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self,
            bufferingPolicy: .bufferingNewest(TransferCall.bufferedReports)
        )
        let task = Task {
            let result = await send(request) { continuation.yield($0) }
            continuation.finish()
            return result
        }
        return TransferCall(progress: stream, task: task)
    }

    private func sendReporting(
        _ request: HTTPRequest,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async -> Result<HTTPResponse, APIClientError> {
        guard let progress else { return await send(request) }
        return await send(request, progress: progress)
    }
}
