import Foundation

extension HTTPBody {
    /// A `multipart/form-data` body, encoded now: in memory up to `inMemoryThreshold` bytes (10 MiB by default),
    /// otherwise in a temporary file in the system's temporary folder, deleted when the body is no longer used.
    /// `Content-Type` is set with the boundary unless the request has one. An encoding failure is kept and
    /// reported as ``APIClientError/invalidRequest(reason:)`` when the request is sent; nothing is sent.
    public static func multipart(
        _ form: MultipartFormData,
        inMemoryThreshold: Int = 10 * 1024 * 1024
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
