import BothamNetworking
import CBothamNativeShims
import CBothamOpenSSL
import Foundation

/// Loads a `TLSConfiguration/ClientIdentity` into an OpenSSL context: the certificate chain the client presents
/// and its private key, checked to match.
///
/// Every failure is a ``TLSError/Code/configuration`` error whose reason names the file (for file identities) and
/// what is wrong, and never contains a password.
enum ClientIdentityLoader {
    /// Loads `identity` into `context`.
    static func load(_ identity: TLSConfiguration.ClientIdentity, into context: OpaquePointer) throws(TLSError) {
        switch identity {
        case .pem(let chain, let key, let password):
            try loadPEM(chain: chain, key: key, password: password, source: "the client identity's PEM data", context)
        case .pemFiles(let chainPath, let keyPath, let password):
            let chain = try TLSConfiguration.contents(ofFile: chainPath, .certificateChain)
            let key = try TLSConfiguration.contents(ofFile: keyPath, .privateKey)
            let source = chainPath == keyPath ? chainPath : "\(chainPath) and \(keyPath)"
            try loadPEM(chain: chain, key: key, password: password, source: source, context)
        case .pkcs12(let data, let password):
            try loadPKCS12(data, password: password, source: "the client identity's PKCS#12 data", context)
        case .pkcs12File(let path, let password):
            try loadPKCS12(
                TLSConfiguration.contents(ofFile: path, .pkcs12), password: password,
                source: path, context)
        }
    }

    private static func loadPEM(
        chain: Data, key: Data, password: String?, source: String, _ context: OpaquePointer
    ) throws(TLSError) {
        ERR_clear_error()
        let status = chain.withUnsafeBytes { chainBytes in
            key.withUnsafeBytes { keyBytes in
                withOptionalCString(password) { password in
                    botham_ssl_ctx_use_pem_identity(
                        context, chainBytes.baseAddress, Int32(clamping: chainBytes.count), keyBytes.baseAddress,
                        Int32(clamping: keyBytes.count), password)
                }
            }
        }
        try check(status, source: source, encrypted: password != nil)
    }

    private static func loadPKCS12(
        _ data: Data, password: String, source: String, _ context: OpaquePointer
    ) throws(TLSError) {
        ERR_clear_error()
        let status = data.withUnsafeBytes { bytes in
            botham_ssl_ctx_use_pkcs12_identity(
                context, bytes.baseAddress, Int32(clamping: bytes.count), password)
        }
        try check(status, source: source, encrypted: true)
    }

    /// Throws the error `status` (a `BOTHAM_IDENTITY_*` value) stands for, with OpenSSL's reason appended.
    private static func check(_ status: Int32, source: String, encrypted: Bool) throws(TLSError) {
        let problem: String
        switch status {
        case BOTHAM_IDENTITY_OK:
            ERR_clear_error()
            return
        case BOTHAM_IDENTITY_NO_CERTIFICATE:
            problem = "no usable certificate in \(source)"
        case BOTHAM_IDENTITY_BAD_KEY:
            problem =
                encrypted
                ? "cannot decrypt the private key in \(source) (wrong password?)"
                : "no usable private key in \(source) (an encrypted key needs its password)"
        case BOTHAM_IDENTITY_KEY_MISMATCH:
            problem = "the private key in \(source) does not match its certificate"
        case BOTHAM_IDENTITY_BAD_CHAIN:
            problem = "cannot add an intermediate certificate from \(source)"
        case BOTHAM_IDENTITY_NOT_PKCS12:
            problem = "\(source) is not a PKCS#12 archive"
        case BOTHAM_IDENTITY_WRONG_PASSWORD:
            problem = "wrong password for the PKCS#12 archive \(source)"
        default:
            problem = "cannot read the certificate and key of the PKCS#12 archive \(source)"
        }
        throw TLSContext.error(.configuration, problem)
    }

    private static func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
