extension HTTPResponse.Charset {
    /// Why a text body could not be read: its bytes are not valid in its charset, or the charset is not supported.
    ///
    /// It is the `underlying` error of ``APIClientError/parsingError(body:underlying:)``, which keeps the body.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The charset label the response named, or the default that was used.
        public let charset: String
        /// Whether the charset itself is unsupported (rather than the bytes being invalid in it).
        public let isUnsupportedCharset: Bool

        /// Creates an error.
        package init(charset: String, isUnsupportedCharset: Bool) {
            self.charset = charset
            self.isUnsupportedCharset = isUnsupportedCharset
        }

        /// A message for people.
        public var description: String {
            let label = DebugText.quoted(charset)
            return isUnsupportedCharset
                ? "the charset \(label) is not supported" : "the body is not valid text in the charset \(label)"
        }
    }
}
