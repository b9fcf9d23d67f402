// #34: one call per feature. An event source of any request is `eventSource(_:policy:)` with `apiClient.request(…)`;
// an upload from memory is a `send(_:progress:)` of a request with a data body. The old spellings keep compiling for
// at least one minor version.
import Foundation

extension BothamAPIClient {
    /// Uploads `data` as the body of `method path` (by default `POST`), reporting progress.
    @available(*, deprecated, message: "use send(request(method, path, body: .data(data, contentType:)), progress:)")
    public func upload(
        _ path: String,
        method: HTTPMethod = .post,
        data: Data,
        contentType: String? = nil,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async -> Result<HTTPResponse, APIClientError> {
        let body = HTTPBody.data(data, contentType: contentType)
        let request = request(method, path, parameters: parameters, headers: headers, body: body)
        guard let progress else { return await send(request) }
        return await send(request, progress: progress)
    }

    /// A reconnecting Server-Sent Events source for `GET path`; see ``EventSource``.
    @available(*, deprecated, message: "use eventSource(request(.get, path, parameters:headers:), policy:)")
    public func eventSource(
        _ path: String,
        parameters: HTTPParameters = [:],
        headers: HTTPHeaders = [:],
        policy: EventSource.Policy = EventSource.Policy()
    ) -> EventSource {
        eventSource(request(.get, path, parameters: parameters, headers: headers), policy: policy)
    }
}
