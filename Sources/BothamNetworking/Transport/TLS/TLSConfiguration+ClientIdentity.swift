import Foundation

extension TLSConfiguration {
    /// A client certificate chain and its private key, presented to servers that ask for one (mutual TLS).
    ///
    /// Loaded when `URLSessionHTTPClient` is made, and by `NativeHTTPClient` on its first HTTPS request; a file that
    /// cannot be read, a key that does not match the certificate or a wrong password fails with
    /// ``TLSError/Code/configuration``. Neither its description nor its reflection (`dump`, `debugPrint`, loggers that
    /// read a `Mirror`) shows the key or the password.
    public enum ClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
        CustomReflectable
    {
        /// PEM data: the leaf certificate first, then any intermediates; the private key (PKCS#8, PKCS#1 or SEC1),
        /// encrypted with `password` when it is given.
        case pem(certificateChain: Data, privateKey: Data, password: String? = nil)
        /// The same, read from two PEM files (they may be the same file).
        case pemFiles(certificateChain: String, privateKey: String, password: String? = nil)
        /// A PKCS#12 (`.p12`, `.pfx`) archive with the certificate, its chain and the key.
        case pkcs12(Data, password: String)
        /// A PKCS#12 archive read from this path.
        case pkcs12File(String, password: String)

        /// The kind of identity and, for files, their paths.
        public var description: String {
            switch self {
            case .pem(let chain, _, _): "ClientIdentity.pem(\(chain.count) bytes of certificates)"
            case .pemFiles(let chain, let key, _): "ClientIdentity.pemFiles(\(chain), \(key))"
            case .pkcs12(let data, _): "ClientIdentity.pkcs12(\(data.count) bytes)"
            case .pkcs12File(let path, _): "ClientIdentity.pkcs12File(\(path))"
            }
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// A mirror with the description as its only child: no key, no password.
        public var customMirror: Mirror { Mirror(self, children: ["identity": description], displayStyle: .enum) }
    }
}
