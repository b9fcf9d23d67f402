extension HTTPResponse {
    /// An HTTP status code and its class.
    public struct Status: Sendable, Hashable {
        /// The class of a status code (RFC 9110 §15).
        public enum Kind: Sendable, Hashable {
            /// 1xx
            case informational
            /// 2xx
            case successful
            /// 3xx
            case redirection
            /// 4xx
            case clientError
            /// 5xx
            case serverError
            /// Outside 100...599.
            case invalid
        }

        /// The three-digit code, for example `404`.
        public let code: Int

        /// Creates a status from its code.
        public init(code: Int) {
            self.code = code
        }

        /// The class of the code.
        public var kind: Kind {
            switch code {
            case 100..<200: return .informational
            case 200..<300: return .successful
            case 300..<400: return .redirection
            case 400..<500: return .clientError
            case 500..<600: return .serverError
            default: return .invalid
            }
        }
    }
}
