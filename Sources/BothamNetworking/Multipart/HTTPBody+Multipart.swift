import Foundation

extension HTTPBody {
    /// A `multipart/form-data` body, encoded now: in memory up to `inMemoryThreshold` bytes (10 MiB by default),
    /// otherwise in a temporary file (see ``MultipartFormData/body(inMemoryThreshold:temporaryDirectory:)``).
    /// `Content-Type` is set with the boundary unless the request has one. An encoding failure is kept and
    /// reported as ``APIClientError/invalidRequest(reason:)`` when the request is sent; nothing is sent.
    public static func multipart(
        _ form: MultipartFormData,
        inMemoryThreshold: Int = MultipartFormData.defaultInMemoryThreshold
    ) -> HTTPBody {
        do {
            return try form.body(inMemoryThreshold: inMemoryThreshold)
        } catch {
            guard case .invalidRequest(let reason) = error else {
                return HTTPBody(storage: .failed(reason: error.description))
            }
            return HTTPBody(storage: .failed(reason: reason))
        }
    }
}
