/// A failure inside ``NativeHTTPClient`` below TLS: name resolution, sockets, HTTP/1.1 framing, limits, decoding.
///
/// It travels as the `underlying` error of a `APIClientError.NetworkFailure`, so callers switch on the failure's `kind` and log
/// this for the detail:
///
/// ```swift
/// if case .networkError(let failure) = error, let native = failure.underlying as? NativeTransportError {
///     print(native.code, native.reason)
/// }
/// ```
public struct NativeTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of a ``NativeTransportError``.
    public enum Code: Sendable, Hashable {
        /// `getaddrinfo` failed.
        case nameResolution
        /// No address accepted the connection.
        case connect
        /// A read or write on the socket failed.
        case socket
        /// The server closed the connection before the response was complete.
        case closedByPeer
        /// The server's bytes are not valid HTTP/1.1.
        case malformedResponse
        /// The response head or body exceeded a configured limit.
        case responseTooLarge
        /// A `gzip` or `deflate` body could not be decoded.
        case decompression
        /// A redirect could not be followed (loop, too many hops, bad `Location`).
        case redirect
    }

    /// The category.
    public let code: Code
    /// What happened, for people.
    public let reason: String
    /// The `errno` of a failed system call, when there was one.
    public let systemErrno: Int32?

    /// Creates an error.
    package init(code: Code, reason: String, systemErrno: Int32? = nil) {
        self.code = code
        self.reason = reason
        self.systemErrno = systemErrno
    }

    /// The code and the reason.
    public var description: String { "\(code): \(reason)" }
}
