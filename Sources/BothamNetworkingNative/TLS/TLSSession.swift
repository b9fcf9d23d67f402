import BothamNetworking
import CBothamNativeShims
import CBothamOpenSSL
import Foundation

/// One TLS connection's OpenSSL state over memory BIOs: the connection moves ciphertext between the socket and
/// the BIOs, so OpenSSL never touches the socket (no `SIGPIPE`, one non-blocking I/O path for TCP and TLS).
///
/// Loop-confined: created, driven and freed on the event loop thread (OpenSSL's error queue is per thread).
final class TLSSession {
    /// The outcome of a handshake step.
    enum HandshakeStep {
        /// Waiting for the server's bytes.
        case needMore
        /// Verified (chain, host name and pins).
        case done
        /// Failed.
        case failed(TLSError)
    }

    /// The outcome of a read.
    enum ReadResult {
        /// This many plaintext bytes were written to the buffer.
        case bytes(Int)
        /// No complete record yet.
        case needMore
        /// The server sent `close_notify`.
        case closed
        /// A protocol error.
        case failed(TLSError)
    }

    private let ssl: OpaquePointer
    private let networkIn: OpaquePointer
    private let networkOut: OpaquePointer
    private let pins: Set<Data>?
    /// What ALPN offered.
    private let alpn: ALPNOffer
    /// Whether the handshake settled on HTTP/2 (ALPN `h2`); known once it is done.
    private(set) var negotiatedHTTP2 = false

    init(context: TLSContext, origin: Origin) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else { throw TLSContext.error(.configuration, "SSL_new failed") }
        guard let networkIn = BIO_new(BIO_s_mem()), let networkOut = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSContext.error(.configuration, "BIO_new failed")
        }
        SSL_set_bio(ssl, networkIn, networkOut)
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
        // "api.example.com." is the same host as "api.example.com": pins, SNI and verification use the name without
        // its trailing dot (SNI must not carry one, RFC 6066 §3).
        let name = TLSContext.canonicalHostName(origin.host)
        pins = context.pins[name]
        alpn = context.alpn
        if origin.hostIsIPAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), origin.host) == 1 else {
                throw TLSContext.error(.configuration, "cannot verify the IP address \(origin.host)")
            }
        } else {
            guard botham_ssl_set_sni(ssl, name) == 1, SSL_set1_host(ssl, name) == 1 else {
                throw TLSContext.error(.configuration, "cannot set the host name \(origin.host)")
            }
        }
        SSL_set_connect_state(ssl)
    }

    deinit {
        SSL_free(ssl)  // frees both BIOs
    }

    /// Hands ciphertext read from the socket to OpenSSL.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = BIO_write(networkIn, base, Int32(clamping: bytes.count))
    }

    /// Ciphertext OpenSSL wants sent, or `nil`.
    func takeOutput() -> Data? {
        let pending = BIO_ctrl_pending(networkOut)
        guard pending > 0 else { return nil }
        var data = Data(count: pending)
        let read = data.withUnsafeMutableBytes { buffer in
            BIO_read(networkOut, buffer.baseAddress, Int32(clamping: buffer.count))
        }
        guard read > 0 else { return nil }
        if Int(read) < data.count { data.removeSubrange(Int(read)...) }
        return data
    }

    /// Advances the handshake with the bytes fed so far.
    func handshake() -> HandshakeStep {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            let pinned = verifyPins()
            guard case .done = pinned else { return pinned }
            return negotiate()
        }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return .needMore }
        return .failed(handshakeError())
    }

    /// Decrypts into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        ERR_clear_error()
        let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if result > 0 { return .bytes(Int(result)) }
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .needMore
        case SSL_ERROR_ZERO_RETURN: return .closed
        default: return .failed(TLSContext.error(.handshake, "TLS read failed"))
        }
    }

    /// Encrypts all of `bytes` into the outgoing BIO.
    func write(_ bytes: UnsafeRawBufferPointer) -> TLSError? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        ERR_clear_error()
        let result = SSL_write(ssl, base, Int32(clamping: bytes.count))
        return result == Int32(clamping: bytes.count) ? nil : TLSContext.error(.handshake, "TLS write failed")
    }

    private func handshakeError() -> TLSError {
        let verifyResult = SSL_get_verify_result(ssl)
        guard verifyResult == X509_V_OK else {
            let reason = String(cString: X509_verify_cert_error_string(verifyResult))
            ERR_clear_error()
            let mismatch =
                verifyResult == X509_V_ERR_HOSTNAME_MISMATCH || verifyResult == X509_V_ERR_IP_ADDRESS_MISMATCH
            return TLSError(code: mismatch ? .hostnameMismatch : .certificateVerification, reason: reason)
        }
        let error = TLSContext.error(.handshake, "the TLS handshake failed")
        guard alpn == .http2, error.reason.contains("no application protocol") else { return error }
        return TLSError(
            code: .handshake, reason: "the server does not speak HTTP/2 (ALPN offered h2 only): \(error.reason)")
    }

    /// What ALPN settled on, checked against what was offered and, for HTTP/2 over TLS 1.2, the cipher suite.
    private func negotiate() -> HandshakeStep {
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        let name = selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self) }
        negotiatedHTTP2 = name == "h2"
        if alpn == .http2 && !negotiatedHTTP2 {
            let picked = name.map { "picked \($0)" } ?? "picked no protocol"
            return .failed(
                TLSError(
                    code: .handshake, reason: "the server does not speak HTTP/2 (ALPN offered h2, it \(picked))"))
        }
        if negotiatedHTTP2 && botham_ssl_cipher_allowed_for_http2(ssl) != 1 {
            let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
            let reason =
                "INADEQUATE_SECURITY: HTTP/2 over TLS 1.2 needs an AEAD cipher suite with ephemeral keys "
                + "(RFC 9113 §9.2.2), the server chose \(cipher ?? "another")"
            return .failed(TLSError(code: .handshake, reason: reason))
        }
        return .done
    }

    private func verifyPins() -> HandshakeStep {
        guard let pins, !pins.isEmpty else { return .done }
        let count = botham_ssl_verified_chain_count(ssl)
        var digest = [UInt8](repeating: 0, count: 32)
        for index in 0..<max(0, count) where botham_ssl_verified_chain_spki_sha256(ssl, index, &digest) == 1 {
            if pins.contains(Data(digest)) { return .done }
        }
        return .failed(
            TLSError(code: .pinMismatch, reason: "no certificate in the chain matches a pinned public key")
        )
    }
}
