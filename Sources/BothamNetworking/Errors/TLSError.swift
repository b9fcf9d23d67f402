/// A TLS failure: a configuration that cannot be loaded or honoured, or a handshake that failed, with the reason.
///
/// At configuration time it is thrown; during a call it travels as the `underlying` error of
/// `APIClientError.NetworkFailure(kind: .secureConnectionFailed)`, and nothing was sent.
public struct TLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of a ``TLSError``.
    public enum Code: Sendable, Hashable {
        /// The configuration could not be loaded: bad PEM or PKCS#12, an unreadable file, a wrong password, a key
        /// that does not match its certificate, a malformed pin.
        case configuration
        /// The transport cannot honour a setting on this platform (the reason names what can).
        case unsupported
        /// The handshake failed for a reason other than certificate checks (protocol version, alert, reset).
        case handshake
        /// The server's chain does not lead to a trusted root, or a certificate is expired or malformed.
        case certificateVerification
        /// The certificate is valid but not for the host name or IP address that was asked for.
        case hostnameMismatch
        /// No certificate in the verified chain has a pinned public key.
        case pinMismatch
        /// The server requires a client certificate and was given none, or rejected the one it was given.
        case clientCertificateRejected
    }

    /// The category.
    public let code: Code
    /// The reason, for people (OpenSSL's or the platform's, when it gave one).
    public let reason: String

    /// Creates an error.
    package init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The code and the reason.
    public var description: String { "TLS \(code): \(reason)" }
}
