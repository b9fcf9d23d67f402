/// The name of an HTTP header field, compared case-insensitively.
///
/// Well-known names are static members, in the style of swift-http-types:
///
/// ```swift
/// let headers: HTTPHeaders = [.authorization: "Bearer t0k3n", .accept: "application/json"]
/// ```
///
/// The name keeps the spelling it was created with (it is sent that way), while equality and hashing ignore case.
public struct HTTPFieldName: Sendable {
    /// The name as written, for example `"Content-Type"`.
    public let rawName: String
    /// The lower-cased name used for comparison.
    package let canonicalName: String

    /// Creates a field name. Invalid names (empty, or characters outside RFC 9110's `tchar`) are rejected by the
    /// client with ``APIClientError/invalidRequest(reason:)`` before anything is sent.
    public init(_ name: String) {
        rawName = name
        canonicalName = Self.lowercased(name)
    }

    /// `name.lowercased()`, several times cheaper for the ASCII names every header has: a name without capitals is
    /// shared as it is, one with capitals has only its bytes `A`–`Z` changed.
    private static func lowercased(_ name: String) -> String {
        var hasCapital = false
        for byte in name.utf8 {
            if byte >= 0x80 { return name.lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasCapital = true }
        }
        guard hasCapital else { return name }
        return String(unsafeUninitializedCapacity: name.utf8.count) { buffer in
            var count = 0
            for byte in name.utf8 {
                buffer[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                count += 1
            }
            return count
        }
    }

    /// Whether the name is a valid RFC 9110 token.
    package var isValid: Bool {
        HTTPToken.isToken(rawName.utf8)
    }
}

extension HTTPFieldName: Hashable {
    /// Field names are equal when they match ignoring ASCII case.
    public static func == (lhs: HTTPFieldName, rhs: HTTPFieldName) -> Bool {
        lhs.canonicalName == rhs.canonicalName
    }

    /// Hashes the lower-cased name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalName)
    }
}

extension HTTPFieldName: ExpressibleByStringLiteral {
    /// Creates a field name from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension HTTPFieldName: CustomStringConvertible {
    /// The name as written.
    public var description: String { rawName }
}

extension HTTPFieldName {
    /// `Accept`
    public static let accept = HTTPFieldName("Accept")
    /// `Accept-Encoding`
    package static let acceptEncoding = HTTPFieldName("Accept-Encoding")
    /// `Accept-Language`
    public static let acceptLanguage = HTTPFieldName("Accept-Language")
    /// `Authorization`
    public static let authorization = HTTPFieldName("Authorization")
    /// `Cache-Control`
    public static let cacheControl = HTTPFieldName("Cache-Control")
    /// `Connection`
    package static let connection = HTTPFieldName("Connection")
    /// `Content-Disposition`
    package static let contentDisposition = HTTPFieldName("Content-Disposition")
    /// `Content-Encoding`
    package static let contentEncoding = HTTPFieldName("Content-Encoding")
    /// `Content-Length`
    public static let contentLength = HTTPFieldName("Content-Length")
    /// `Content-Type`
    public static let contentType = HTTPFieldName("Content-Type")
    /// `Cookie`
    public static let cookie = HTTPFieldName("Cookie")
    /// `ETag`
    package static let eTag = HTTPFieldName("ETag")
    /// `Host`
    package static let host = HTTPFieldName("Host")
    /// `If-None-Match`
    package static let ifNoneMatch = HTTPFieldName("If-None-Match")
    /// `Location`
    package static let location = HTTPFieldName("Location")
    /// `Proxy-Authorization`
    package static let proxyAuthorization = HTTPFieldName("Proxy-Authorization")
    /// `Retry-After`
    package static let retryAfter = HTTPFieldName("Retry-After")
    /// `Set-Cookie`
    package static let setCookie = HTTPFieldName("Set-Cookie")
    /// `Transfer-Encoding`
    package static let transferEncoding = HTTPFieldName("Transfer-Encoding")
    /// `User-Agent`
    public static let userAgent = HTTPFieldName("User-Agent")
    /// `WWW-Authenticate`
    @usableFromInline
    package static let wwwAuthenticate = HTTPFieldName("WWW-Authenticate")
}
