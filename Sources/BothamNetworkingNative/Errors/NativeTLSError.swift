/// A TLS failure in ``NativeHTTPClient``, with OpenSSL's reason.
///
/// It travels as the `underlying` error of `APIClientError.NetworkFailure(kind: .secureConnectionFailed)`.
public struct NativeTLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of a ``NativeTLSError``.
    public enum Code: Sendable, Hashable {
        /// The TLS configuration could not be loaded (bad PEM, unreadable file, OpenSSL refused a setting).
        case configuration
        /// The handshake failed for a reason other than certificate checks (protocol version, alert, reset).
        case handshake
        /// The server's chain does not lead to a trusted root, or a certificate is expired or malformed.
        case certificateVerification
        /// The certificate is valid but not for the host name or IP address that was asked for.
        case hostnameMismatch
        /// No certificate in the verified chain has a pinned public key.
        case pinMismatch
    }

    /// The category.
    public let code: Code
    /// OpenSSL's reason (or ours), for people.
    public let reason: String

    /// Creates an error.
    package init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The code and the reason.
    public var description: String { "TLS \(code): \(reason)" }
}
