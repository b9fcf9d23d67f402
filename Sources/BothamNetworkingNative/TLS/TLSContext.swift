import BothamNetworking
import CBothamNativeShims
import CBothamOpenSSL
import Foundation

/// An OpenSSL `SSL_CTX` configured from a `TLSConfiguration`, the protocols ALPN offers and the client identity
/// presented (if any), shared by a client's connections.
///
/// `@unchecked Sendable`: the context is fully configured in `init` and never changed afterwards; OpenSSL allows
/// `SSL_new` on a configured context from any thread. `pins`, `alpn` and `presentsIdentity` are immutable and
/// `sessions` is thread-safe.
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    /// Pinned SPKI SHA-256 digests by lower-cased host.
    let pins: [String: Set<Data>]
    /// What ALPN offers, and so what a handshake may settle on.
    let alpn: ALPNOffer
    /// Whether a client certificate is loaded (mutual TLS).
    let presentsIdentity: Bool
    /// The sessions new connections may resume; `nil` when the configuration turned resumption off.
    let sessions: TLSSessionCache?

    init(
        configuration: TLSConfiguration, alpn: ALPNOffer = .http1, identity: TLSConfiguration.ClientIdentity? = nil
    ) throws(TLSError) {
        // The pins first: a throw after `SSL_CTX_new` but before every property is set would skip `deinit`'s free.
        pins = try TLSPublicKeyPins(configuration.pinnedPublicKeys).digests
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw TLSContext.error(.configuration, "SSL_CTX_new failed")
        }
        self.context = context
        self.alpn = alpn
        presentsIdentity = identity != nil
        sessions = configuration.sessionResumption ? TLSSessionCache() : nil
        guard botham_ssl_ctx_set_min_tls12(context) == 1 else {
            throw TLSContext.error(.configuration, "cannot require TLS 1.2")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let protocols = alpn.wireFormat
        guard SSL_CTX_set_alpn_protos(context, protocols, UInt32(protocols.count)) == 0 else {
            throw TLSContext.error(.configuration, "cannot set ALPN")
        }
        // RFC 9113 §9.2.1: no TLS compression and no renegotiation under HTTP/2 (neither is used for HTTP/1.1).
        botham_ssl_ctx_forbid_compression_and_renegotiation(context)
        try loadTrustRoots(configuration.trustRoots)
        // Knowing whether the server asked for a certificate tells a rejected client certificate from other alerts.
        botham_ssl_ctx_track_certificate_request(context)
        if let identity { try ClientIdentityLoader.load(identity, into: context) }
        if sessions != nil {
            // A closure that captures nothing is a C function pointer; the connection's `TLSSession` is found
            // through the `SSL`, and is alive: OpenSSL calls back from inside its handshake or read.
            botham_ssl_ctx_enable_client_sessions(context) { ssl, session in
                guard let ssl, let session, let owner = botham_ssl_get_owner(ssl) else { return 0 }
                return Unmanaged<TLSSession>.fromOpaque(owner).takeUnretainedValue().receive(session) ? 1 : 0
            }
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    private func loadTrustRoots(_ roots: TLSConfiguration.TrustRoots) throws(TLSError) {
        let pem: Data
        switch roots {
        case .system:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw TLSContext.error(.configuration, "cannot load the system trust store")
            }
            return
        case .pem(let data):
            pem = data
        case .pemFile(let path):
            pem = try TLSConfiguration.contents(ofFile: path, .trustRoots)
        }
        let added = pem.withUnsafeBytes { bytes in
            botham_ssl_ctx_add_pem_roots(context, bytes.baseAddress, Int32(clamping: bytes.count))
        }
        guard added > 0 else {
            throw TLSError(code: .configuration, reason: "no certificate found in the trust roots PEM")
        }
    }

    /// An error with OpenSSL's queued reason appended (and the queue cleared).
    static func error(_ code: TLSError.Code, _ message: String) -> TLSError {
        let reason = openSSLReason()
        return TLSError(code: code, reason: reason.isEmpty ? message : "\(message): \(reason)")
    }

    /// The reasons in OpenSSL's error queue of this thread, joined; empties the queue.
    static func openSSLReason() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.joined(separator: "; ")
    }
}
