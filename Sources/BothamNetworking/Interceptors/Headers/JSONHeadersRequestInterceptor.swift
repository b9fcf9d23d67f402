/// Botham's JSON headers: `Content-Type: application/json` and `Accept: application/json`.
///
/// ```swift
/// apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
/// ```
///
/// Unlike Botham's, a header the request already has is kept, and `Content-Type` is not added to a body that brings
/// its own (``HTTPBody/form(_:)``, ``HTTPBody/text(_:contentType:)``, ``HTTPBody/data(_:contentType:)`` with a
/// type), so form posts and uploads are not mislabelled.
public struct JSONHeadersRequestInterceptor: BothamRequestInterceptor {
    /// Creates the interceptor.
    public init() {}

    /// Adds the JSON headers the request does not have yet.
    public func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        if !request.headers.contains(.contentType), request.body?.hasOwnContentType != true {
            request = request.withHeader(.contentType, "application/json")
        }
        if !request.headers.contains(.accept) { request = request.withHeader(.accept, "application/json") }
        return request
    }
}

extension HTTPBody {
    /// Whether the body sets a content type other than JSON by itself.
    var hasOwnContentType: Bool {
        switch storage {
        case .data(_, let contentType), .file(_, let contentType, _), .stream(_, let contentType):
            return contentType != nil
        case .form: return true
        case .json, .parameters, .failed: return false
        }
    }
}
