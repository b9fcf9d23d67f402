import Foundation

/// How a transport verifies servers over HTTPS, and which certificate it presents when a server asks for one.
///
/// One configuration for both transports: `NativeHTTPClient.Configuration.tls` and
/// `URLSessionHTTPClient(configuration:tls:sessionConfiguration:)`. TLS 1.2 is the minimum, the chain is verified and
/// the host name (or IP address) must match the certificate; nothing here turns verification off. A transport that
/// cannot honour a setting on its platform refuses it with ``TLSError/Code/unsupported`` instead of ignoring it.
///
/// ```swift
/// var tls = TLSConfiguration()
/// tls.trustRoots = .pemFile("/etc/my-company/ca.pem")
/// tls.pinnedPublicKeys = ["api.example.com": ["r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="]]
/// tls.clientIdentity = .pkcs12File("/etc/my-company/client.p12", password: "secret")
/// ```
public struct TLSConfiguration: Sendable, Hashable {
    /// Which certificate authorities a server chain must lead to.
    public enum TrustRoots: Sendable, Hashable {
        /// The operating system's store.
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
    /// of its pins; other hosts are not pinned. Host names are compared ignoring case and a trailing dot.
    public var pinnedPublicKeys: [String: [String]]

    /// The certificate presented to every server that asks for one (mutual TLS), unless ``clientIdentities`` names
    /// the host; `nil` (the default) presents none.
    public var clientIdentity: ClientIdentity?

    /// Client identities by host, overriding ``clientIdentity`` for those hosts (compared as pins are: give a host one
    /// entry, since spellings that differ in case or a trailing dot name the same host; of several, the one that
    /// sorts first is used).
    public var clientIdentities: [String: ClientIdentity]

    /// Whether a new connection resumes an earlier TLS session with the same server and configuration (TLS 1.3
    /// tickets, TLS 1.2 session IDs), saving a full handshake. On by default. Sessions are never shared between
    /// configurations, so pins and identities always apply.
    public var sessionResumption: Bool

    /// Creates a configuration.
    public init(
        trustRoots: TrustRoots = .system,
        pinnedPublicKeys: [String: [String]] = [:],
        clientIdentity: ClientIdentity? = nil,
        clientIdentities: [String: ClientIdentity] = [:],
        sessionResumption: Bool = true
    ) {
        self.trustRoots = trustRoots
        self.pinnedPublicKeys = pinnedPublicKeys
        self.clientIdentity = clientIdentity
        self.clientIdentities = clientIdentities
        self.sessionResumption = sessionResumption
    }

    /// The identity presented to `host`: its entry in ``clientIdentities``, else ``clientIdentity``.
    package func clientIdentity(for host: String) -> ClientIdentity? {
        // Looked up on every HTTPS request: without per-host identities, no host name is lowered.
        guard !clientIdentities.isEmpty else { return clientIdentity }
        let key = Self.canonicalHostName(host)
        var chosen: (name: String, identity: ClientIdentity)?
        for (name, identity) in clientIdentities where Self.canonicalHostName(name) == key {
            if Self.presents(name, over: chosen?.name) { chosen = (name, identity) }
        }
        return chosen?.identity ?? clientIdentity
    }

    /// ``clientIdentities`` by canonical host name (``canonicalHostName(_:)``), each host's as
    /// ``clientIdentity(for:)`` picks it: what a transport that loads every identity up front loads.
    package var clientIdentitiesByHost: [String: ClientIdentity] {
        var chosen: [String: (name: String, identity: ClientIdentity)] = [:]
        for (name, identity) in clientIdentities {
            let key = Self.canonicalHostName(name)
            if Self.presents(name, over: chosen[key]?.name) { chosen[key] = (name, identity) }
        }
        return chosen.mapValues(\.identity)
    }

    /// Whether the identity listed under `name` is presented rather than the one under `chosen`, another spelling of
    /// the same host (case, trailing dot): the spelling that sorts first, on both transports.
    private static func presents(_ name: String, over chosen: String?) -> Bool {
        chosen.map { name < $0 } ?? true
    }

    /// A host name as pins and identities are keyed: lower case, without a trailing dot.
    package static func canonicalHostName(_ host: String) -> String {
        let lowered = host.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}
