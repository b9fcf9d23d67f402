import Foundation

/// How ``NativeHTTPClient`` verifies servers over HTTPS (OpenSSL 3).
///
/// TLS 1.2 is the minimum, ALPN offers `http/1.1`, SNI is sent for host names, the chain is verified and the host
/// name (or IP address) must match the certificate. Nothing here turns verification off.
///
/// ```swift
/// var tls = NativeTLSConfiguration()
/// tls.trustRoots = .pemFile("/etc/my-company/ca.pem")
/// tls.pinnedPublicKeys = ["api.example.com": ["r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="]]
/// ```
public struct NativeTLSConfiguration: Sendable, Hashable {
    /// Which certificate authorities a server chain must lead to.
    public enum TrustRoots: Sendable, Hashable {
        /// The operating system's store (`SSL_CTX_set_default_verify_paths`; on Debian `/etc/ssl/certs`).
        case system
        /// Only the certificates in this PEM data (one or more `BEGIN CERTIFICATE` blocks): a private CA, tests.
        case pem(Data)
        /// Only the certificates in the PEM file at this path.
        case pemFile(String)
    }

    /// The trusted roots; ``TrustRoots/system`` by default.
    public var trustRoots: TrustRoots

    /// Public-key pins by host: the base64 SHA-256 of a certificate's SubjectPublicKeyInfo (an optional `sha256/`
    /// prefix is accepted). For a host listed here, at least one certificate of the verified chain must match one
    /// of its pins; other hosts are not pinned. Host names are compared ignoring case.
    public var pinnedPublicKeys: [String: [String]]

    /// Creates a configuration.
    public init(trustRoots: TrustRoots = .system, pinnedPublicKeys: [String: [String]] = [:]) {
        self.trustRoots = trustRoots
        self.pinnedPublicKeys = pinnedPublicKeys
    }
}
