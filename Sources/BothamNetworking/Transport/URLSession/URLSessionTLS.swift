import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Security)
    import Security
#endif

/// A ``TLSConfiguration`` validated and loaded for `URLSessionHTTPClient`, and the answers to URLSession's TLS
/// challenges that follow from it.
///
/// Loading happens once, when the client is created: a malformed pin, an unreadable file, PEM without a certificate
/// or a PKCS#12 archive that does not open throws ``TLSError/Code/configuration``; a setting the platform cannot
/// honour throws ``TLSError/Code/unsupported`` (the platforms' support: the TLS article). On Apple platforms roots
/// and pins answer the server-trust challenge and a PKCS#12 identity the client-certificate one.
///
/// `@unchecked Sendable`: every stored property is a `let` set in `init`; on Apple platforms they hold
/// `SecCertificate`s and `URLCredential`s, immutable objects that Security and Foundation allow using from any
/// thread.
final class URLSessionTLS: @unchecked Sendable {
    /// The platform's own handling: system roots, no pins, no client certificate, resumption on.
    static let system = URLSessionTLS()

    /// The pins, validated.
    let pins: TLSPublicKeyPins
    #if canImport(Security)
        /// The only roots a chain may lead to, or `nil` for the system's.
        private let anchors: [SecCertificate]?
        /// The credential answering a client-certificate challenge from a host not in `credentials`.
        private let defaultCredential: URLCredential?
        /// Credentials by canonical host name.
        private let credentials: [String: URLCredential]
    #endif

    private init() {
        pins = TLSPublicKeyPins.none
        #if canImport(Security)
            anchors = nil
            defaultCredential = nil
            credentials = [:]
        #endif
    }

    /// Validates and loads `configuration`; see the type's documentation for what throws what.
    // The static helpers are called by the type's name, not `Self`: on Apple platforms they run before every
    // stored property is set.
    init(_ configuration: TLSConfiguration) throws(TLSError) {
        pins = try TLSPublicKeyPins(configuration.pinnedPublicKeys)
        let roots = try URLSessionTLS.rootCertificates(configuration.trustRoots)
        var identities: [(host: String?, identity: TLSConfiguration.ClientIdentity)] = []
        if let identity = configuration.clientIdentity { identities.append((nil, identity)) }
        // By canonical host name, each the identity `clientIdentity(for:)` picks.
        for (host, identity) in configuration.clientIdentitiesByHost { identities.append((host, identity)) }
        #if canImport(Security)
            if let roots {
                var certificates: [SecCertificate] = []
                for der in roots {
                    guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
                        throw TLSError(code: .configuration, reason: "a trust root is not a valid certificate")
                    }
                    certificates.append(certificate)
                }
                anchors = certificates
            } else {
                anchors = nil
            }
            var defaultCredential: URLCredential?
            var credentials: [String: URLCredential] = [:]
            for (host, identity) in identities {
                let credential = try URLSessionTLS.credential(for: identity)
                if let host {
                    credentials[host] = credential
                } else {
                    defaultCredential = credential
                }
            }
            self.defaultCredential = defaultCredential
            self.credentials = credentials
        #else
            for (_, identity) in identities { try URLSessionTLS.validate(identity) }
            if roots != nil { throw URLSessionTLS.unsupportedOnLinux("trust custom roots (`trustRoots`)") }
            if !pins.isEmpty { throw URLSessionTLS.unsupportedOnLinux("pin public keys (`pinnedPublicKeys`)") }
            if !identities.isEmpty {
                throw URLSessionTLS.unsupportedOnLinux(
                    "present a client certificate (`clientIdentity`, `clientIdentities`)")
            }
        #endif
        if !configuration.sessionResumption {
            throw TLSError(
                code: .unsupported,
                reason: "URLSessionHTTPClient cannot turn TLS session resumption off: URLSession resumes sessions "
                    + "on its own and has no switch for it; NativeHTTPClient (BothamNetworkingNative) has one")
        }
    }

    /// The DER certificates of `roots`, or `nil` for the system's.
    private static func rootCertificates(_ roots: TLSConfiguration.TrustRoots) throws(TLSError) -> [Data]? {
        let pem: Data
        switch roots {
        case .system: return nil
        case .pem(let data): pem = data
        case .pemFile(let path): pem = try TLSConfiguration.contents(ofFile: path, .trustRoots)
        }
        let certificates = PEMCertificates.derBlocks(in: pem)
        guard !certificates.isEmpty else {
            throw TLSError(code: .configuration, reason: "no certificate found in the trust roots PEM")
        }
        return certificates
    }

    #if canImport(Security)
        /// Whether server-trust challenges are answered here rather than by the platform's default handling.
        var evaluatesServerTrust: Bool { anchors != nil || !pins.isEmpty }

        /// The credential presented to `host` when it asks for a client certificate, if any.
        func clientCredential(for host: String) -> URLCredential? {
            credentials[TLSConfiguration.canonicalHostName(host)] ?? defaultCredential
        }

        /// Answers a server-trust or client-certificate challenge as this configuration says, calling
        /// `rejected` with the reason before cancelling a server-trust challenge. Returns `false`, without
        /// answering, for any other challenge and for one the platform's default handling answers.
        func answer(
            _ challenge: URLAuthenticationChallenge,
            rejected: (TLSError) -> Void,
            completionHandler: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) -> Bool {
            let space = challenge.protectionSpace
            switch space.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust:
                guard evaluatesServerTrust else { return false }
                guard let trust = space.serverTrust else {
                    rejected(TLSError(code: .certificateVerification, reason: "the server's trust was not given"))
                    completionHandler(.cancelAuthenticationChallenge, nil)
                    return true
                }
                if let failure = evaluate(trust, host: space.host) {
                    rejected(failure)
                    completionHandler(.cancelAuthenticationChallenge, nil)
                } else {
                    completionHandler(.useCredential, URLCredential(trust: trust))
                }
                return true
            case NSURLAuthenticationMethodClientCertificate:
                guard let credential = clientCredential(for: space.host) else { return false }
                completionHandler(.useCredential, credential)
                return true
            default:
                return false
            }
        }

        /// Verifies `trust` for `host` (the system's roots or only the configured ones, the host name, then the
        /// host's pins against every certificate of the verified chain); the failure, or `nil` when it passes.
        func evaluate(_ trust: SecTrust, host: String) -> TLSError? {
            SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))
            if let anchors {
                SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, true)
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                let reason = error.map { CFErrorCopyDescription($0) as String } ?? "the chain is not trusted"
                let hostMismatch = error.map { CFErrorGetCode($0) == Int(errSecHostNameMismatch) } ?? false
                return TLSError(code: hostMismatch ? .hostnameMismatch : .certificateVerification, reason: reason)
            }
            let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            let ders = chain.map { SecCertificateCopyData($0) as Data }
            guard pins.accepts(chain: ders, for: host) else {
                return TLSError(
                    code: .pinMismatch,
                    reason: "no certificate in the verified chain of \(host) has a pinned public key")
            }
            return nil
        }

        /// The credential of a PKCS#12 identity; PEM identities are refused (no public API makes a `SecIdentity`
        /// from PEM on every Apple platform).
        private static func credential(for identity: TLSConfiguration.ClientIdentity) throws(TLSError) -> URLCredential
        {
            let archive: Data
            let password: String
            switch identity {
            case .pem, .pemFiles:
                try validate(identity)
                throw TLSError(
                    code: .unsupported,
                    reason: "URLSessionHTTPClient on Apple platforms presents PKCS#12 identities only: convert the "
                        + "PEM certificate and key to PKCS#12 (`openssl pkcs12 -export`), or use NativeHTTPClient "
                        + "(BothamNetworkingNative), which reads PEM")
            case .pkcs12(let data, let secret):
                (archive, password) = (data, secret)
            case .pkcs12File(let path, let secret):
                (archive, password) = (try TLSConfiguration.contents(ofFile: path, .pkcs12), secret)
            }
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: password] as CFDictionary
            let status = SecPKCS12Import(archive as CFData, options, &items)
            guard status == errSecSuccess else {
                // macOS may report a wrong password as errSecPkcs12VerifyFailure (-25264) instead.
                let reason =
                    status == errSecAuthFailed || status == -25264
                    ? "wrong PKCS#12 password" : "cannot import the PKCS#12 archive (OSStatus \(status))"
                throw TLSError(code: .configuration, reason: reason)
            }
            guard let item = (items as? [[String: Any]])?.first, let found = item[kSecImportItemIdentity as String],
                CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
            else {
                throw TLSError(code: .configuration, reason: "the PKCS#12 archive holds no identity")
            }
            // The type ID was checked above: the cast cannot fail.
            // swift-format-ignore: NeverForceUnwrap
            let secIdentity = found as! SecIdentity
            let chain = (item[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
            return URLCredential(
                identity: secIdentity, certificates: Array(chain.dropFirst()), persistence: .forSession)
        }
    #else
        /// ``TLSError/Code/unsupported`` for a setting FoundationNetworking cannot honour, naming the transport
        /// that can.
        private static func unsupportedOnLinux(_ what: String) -> TLSError {
            TLSError(
                code: .unsupported,
                reason: "URLSessionHTTPClient cannot \(what) on Linux: FoundationNetworking (libcurl) gives its "
                    + "delegate no TLS challenge and has no per-session TLS setting; use NativeHTTPClient "
                    + "(BothamNetworkingNative), which can")
        }
    #endif

    /// Checks what can be checked of `identity` without a TLS library: its files are readable, PEM holds a
    /// certificate and a key, an archive is not empty.
    private static func validate(_ identity: TLSConfiguration.ClientIdentity) throws(TLSError) {
        switch identity {
        case .pem(let chain, let key, _):
            try validatePEM(chain: chain, key: key)
        case .pemFiles(let chainPath, let keyPath, _):
            try validatePEM(
                chain: try TLSConfiguration.contents(ofFile: chainPath, .certificateChain),
                key: try TLSConfiguration.contents(ofFile: keyPath, .privateKey)
            )
        case .pkcs12(let data, _):
            if data.isEmpty { throw TLSError(code: .configuration, reason: "the PKCS#12 archive is empty") }
        case .pkcs12File(let path, _):
            if try TLSConfiguration.contents(ofFile: path, .pkcs12).isEmpty {
                throw TLSError(code: .configuration, reason: "the PKCS#12 file \(path) is empty")
            }
        }
    }

    private static func validatePEM(chain: Data, key: Data) throws(TLSError) {
        if PEMCertificates.derBlocks(in: chain).isEmpty {
            throw TLSError(code: .configuration, reason: "no certificate found in the client certificate chain PEM")
        }
        if !String(decoding: key, as: UTF8.self).contains("PRIVATE KEY-----") {
            throw TLSError(code: .configuration, reason: "no private key found in the client key PEM")
        }
    }
}
