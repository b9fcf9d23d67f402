import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``RedirectHop`` applied to the `URLRequest`s that `URLSession` proposes.
extension RedirectHop {
    /// `request` without the credential fields and `sensitiveFields`.
    static func strippingCredentials(_ request: URLRequest, sensitiveFields: [HTTPFieldName] = []) -> URLRequest {
        var stripped = request
        for field in credentialFields + sensitiveFields {
            stripped.setValue(nil, forHTTPHeaderField: field.rawName)
        }
        return stripped
    }

    /// Whether the hop after `previous` answered by `statusCode` keeps `previous`'s method and body (which
    /// `URLSession` on Linux drops for 307 and 308, so the transport re-sends it itself).
    static func keepsMethodAndBody(_ previous: URLRequest, statusCode: Int) -> Bool {
        let method = HTTPMethod(previous.httpMethod ?? HTTPMethod.get.rawValue)
        return methodAfterRedirect(method, statusCode: statusCode).keepsBody
    }

    /// The request a redirect that keeps the method and body sends: the previous hop's method, headers and body, to
    /// `url`.
    static func reissue(_ previous: URLRequest, to url: URL) -> URLRequest {
        var next = previous
        next.url = url
        return next
    }

    /// `request` as a redirect that turned it into a body-less `GET` sends it: without `Content-Type` and
    /// `Content-Length` (URLSession keeps them).
    static func droppingBodyFields(_ request: URLRequest) -> URLRequest {
        var next = request
        next.setValue(nil, forHTTPHeaderField: "Content-Type")
        next.setValue(nil, forHTTPHeaderField: "Content-Length")
        next.httpBody = nil
        return next
    }
}
