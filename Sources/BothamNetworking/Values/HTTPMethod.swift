/// An HTTP request method.
///
/// An open set in the style of swift-http-types: the standard methods are static members (`.get`, `.post`, …) and any
/// other token can be made with ``init(_:)``.
///
/// ```swift
/// let purge = HTTPMethod("PURGE")
/// ```
public struct HTTPMethod: Sendable, Hashable {
    /// The method token exactly as it is sent on the request line, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. Tokens are case-sensitive (`"get"` is not `GET`).
    ///
    /// A token that is empty or contains characters outside RFC 9110's `tchar` set is not rejected here; the client
    /// rejects it with ``APIClientError/invalidRequest(reason:)`` before anything is sent.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`: transfer a current representation of the target resource.
    public static let get = HTTPMethod("GET")
    /// `POST`: process the enclosed representation.
    public static let post = HTTPMethod("POST")
    /// `PUT`: replace the target resource with the enclosed representation.
    public static let put = HTTPMethod("PUT")
    /// `DELETE`: remove the target resource.
    public static let delete = HTTPMethod("DELETE")
    /// `PATCH`: apply partial modifications.
    public static let patch = HTTPMethod("PATCH")
    /// `HEAD`: like `GET`, without a response body.
    public static let head = HTTPMethod("HEAD")
    /// `OPTIONS`: describe the communication options.
    public static let options = HTTPMethod("OPTIONS")
    /// `TRACE`: a message loop-back test.
    package static let trace = HTTPMethod("TRACE")
    /// `CONNECT`: establish a tunnel.
    package static let connect = HTTPMethod("CONNECT")

    /// Whether the method is idempotent (RFC 9110 §9.2.2): `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`.
    ///
    /// Automatic retries only repeat idempotent requests unless told otherwise.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": return true
        default: return false
        }
    }

    /// Whether the method is a valid RFC 9110 token (non-empty, `tchar` only).
    package var isValidToken: Bool {
        HTTPToken.isToken(rawValue.utf8)
    }
}

extension HTTPMethod: ExpressibleByStringLiteral {
    /// Creates a method from a string literal, for example `let method: HTTPMethod = "PURGE"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension HTTPMethod: CustomStringConvertible {
    /// The method token.
    public var description: String { rawValue }
}
