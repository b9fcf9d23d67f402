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
    /// What this connection's ALPN offer, sessions and client identity come from.
    private let context: TLSContext
    /// Whether the handshake settled on HTTP/2 (ALPN `h2`); known once it is done.
    private(set) var negotiatedHTTP2 = false
    /// Where this connection's sessions are stored and looked up, when resumption is on.
    private var sessions: TLSSessionCache? { context.sessions }
    private let server: TLSSessionCache.Server
    /// Whether every check of the handshake passed, so new sessions may be stored.
    private var verified = false
    /// Sessions that arrived before the checks ended (TLS 1.2 hands one over inside the handshake), one reference
    /// each: stored once the checks pass, freed otherwise.
    private var pendingSessions: [OpaquePointer] = []

    /// Starts a session with `origin` (for a Unix domain socket, its `tlsOrigin`); `socketPath` keeps the sessions
    /// of different sockets apart.
    init(context: TLSContext, origin: Origin, socketPath: String? = nil) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else { throw TLSContext.error(.configuration, "SSL_new failed") }
        guard let networkIn = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSContext.error(.configuration, "BIO_new failed")
        }
        guard let networkOut = BIO_new(BIO_s_mem()) else {
            BIO_free(networkIn)
            SSL_free(ssl)
            throw TLSContext.error(.configuration, "BIO_new failed")
        }
        SSL_set_bio(ssl, networkIn, networkOut)
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
        // "api.example.com." is the same host as "api.example.com": pins, SNI and verification use the name without
        // its trailing dot (SNI must not carry one, RFC 6066 §3).
        let name = TLSConfiguration.canonicalHostName(origin.host)
        pins = context.pins[name]
        self.context = context
        server = TLSSessionCache.Server(host: name, port: origin.port, socketPath: socketPath)
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
        if let sessions {
            // Not retained: OpenSSL calls back only from inside this object's handshake and reads, and `deinit`
            // frees the `SSL` first.
            botham_ssl_set_owner(ssl, Unmanaged.passUnretained(self).toOpaque())
            sessions.offer(to: ssl, for: server)
        }
    }

    deinit {
        // OpenSSL marks the session of a connection freed without `close_notify` not resumable, and the cache
        // holds that same session object. Since TLS 1.1 an unannounced close does not forbid resumption
        // (RFC 5246 §7.2.1); a fatal alert does, and OpenSSL marks the session when it sends or receives one.
        if verified { SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN) }
        SSL_free(ssl)  // frees both BIOs
        for session in pendingSessions { SSL_SESSION_free(session) }
    }

    /// Takes a new session OpenSSL made for this connection (one reference): stored for later connections to the
    /// same server once the handshake passed every check, kept until then. Returns whether it took the reference.
    func receive(_ session: OpaquePointer) -> Bool {
        guard let sessions, SSL_SESSION_is_resumable(session) == 1 else { return false }
        if verified {
            sessions.store(session, for: server)
        } else {
            pendingSessions.append(session)
        }
        return true
    }

    /// Records the handshake's outcome once every check passed, and stores the sessions that waited for it.
    private func handshakeVerified() {
        verified = true
        guard let sessions else { return }
        sessions.recordHandshake(resumed: SSL_session_reused(ssl) == 1)
        for session in pendingSessions { sessions.store(session, for: server) }
        pendingSessions = []
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
            let negotiated = negotiate()
            if case .done = negotiated { handshakeVerified() }
            return negotiated
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
        default:
            // TLS 1.3: a server that refuses the client certificate says so after the client's handshake ended,
            // in an alert that fails the first read.
            if let rejected = clientCertificateRejection() { return .failed(rejected) }
            return .failed(TLSContext.error(.handshake, "TLS read failed"))
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
        if let rejected = clientCertificateRejection() { return rejected }
        let error = TLSContext.error(.handshake, "the TLS handshake failed")
        guard context.alpn == .http2, error.reason.contains("no application protocol") else { return error }
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
        if context.alpn == .http2 && !negotiatedHTTP2 {
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

    /// After writing to the socket failed (the server reset the connection): the server's client-certificate alert,
    /// if it asked for a certificate and the alert is among the bytes still unread on `fd`. A server may close right
    /// after its alert, while the client, its handshake finished, is still sending the request.
    func clientCertificateRejection(unreadOn fd: Int32) -> TLSError? {
        guard botham_ssl_certificate_was_requested(ssl) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        return buffer.withUnsafeMutableBytes { buffer -> TLSError? in
            while true {
                let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { break }
                feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
            ERR_clear_error()
            guard SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count)) <= 0 else { return nil }
            return clientCertificateRejection()
        }
    }

    /// Alerts a server sends about the client's certificate: handshake_failure (TLS 1.2 servers refusing a
    /// missing one; counted only when the server asked for a certificate), bad_certificate,
    /// unsupported_certificate, certificate_revoked, certificate_expired, certificate_unknown, unknown_ca,
    /// access_denied and certificate_required (RFC 8446 §6.2).
    private static let clientCertificateAlerts: Set<Int32> = [40, 42, 43, 44, 45, 46, 48, 49, 116]

    /// A ``TLSError/Code/clientCertificateRejected`` error when the failure at the front of OpenSSL's error queue
    /// is the server's alert about the client certificate, after it asked for one (or `certificate_required`,
    /// which says so itself); `nil` otherwise, with the queue untouched.
    private func clientCertificateRejection() -> TLSError? {
        let alert = botham_ssl_peek_received_alert()
        guard Self.clientCertificateAlerts.contains(alert),
            alert == 116 || botham_ssl_certificate_was_requested(ssl) == 1
        else { return nil }
        let name = String(cString: SSL_alert_desc_string_long(alert))
        ERR_clear_error()
        let reason =
            context.presentsIdentity
            ? "the server rejected the client certificate (alert: \(name))"
            : "the server requires a client certificate and none is configured (alert: \(name)); set "
                + "TLSConfiguration.clientIdentity"
        return TLSError(code: .clientCertificateRejected, reason: reason)
    }

    private func verifyPins() -> HandshakeStep {
        guard let pins, !pins.isEmpty else { return .done }
        // A resumed session exchanges no certificates: it was stored only after its own handshake with this server
        // (the same host and port) passed these pins, and its context is this one.
        if SSL_session_reused(ssl) == 1 { return .done }
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
