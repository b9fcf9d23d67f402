extension HTTPResponse {
    /// The version of HTTP an exchange was carried over, as ``HTTPResponse/Timings/protocolVersion`` and
    /// `HTTPResponse.protocolVersion` report it.
    ///
    /// `NativeHTTPClient` reports ``http1_1`` or ``http2`` for every exchange (which one depends on its
    /// `httpVersion` setting and, over TLS, on what ALPN negotiated); transports that cannot tell report none.
    public struct ProtocolVersion: Sendable, Hashable, CustomStringConvertible {
        /// The major version: 1 or 2.
        package let major: Int
        /// The minor version: 1 for HTTP/1.1, 0 for HTTP/2.
        package let minor: Int

        /// A version from its numbers.
        package init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }

        // `http1_1`, as SwiftNIO and AsyncHTTPClient spell it (`http11` would read as eleven).
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// HTTP/1.1 (RFC 9112): one request at a time per connection.
        public static let http1_1 = ProtocolVersion(major: 1, minor: 1)
        /// HTTP/2 (RFC 9113): many requests at once over one connection, each on a stream of its own.
        public static let http2 = ProtocolVersion(major: 2, minor: 0)

        /// `HTTP/1.1` or `HTTP/2`, as the protocols' own documents write them.
        public var description: String { minor == 0 && major >= 2 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }
    }
}
