import BothamNetworking

/// Loaded TLS contexts by configuration, ALPN offer and client identity, shared by every client in the process.
///
/// Loading the system trust store costs tens of milliseconds, so it happens once, on the first HTTPS request, not
/// when a client is created. The cache holds one context per distinct key for the life of the process; a context's
/// resumable sessions are its own, so two configurations (other pins, roots or identities) never share one.
enum TLSContextCache {
    private struct Key: Hashable {
        let configuration: TLSConfiguration
        let alpn: ALPNOffer
        let identity: TLSConfiguration.ClientIdentity?
    }

    private static let contexts = Lock([Key: Result<TLSContext, TLSError>]())

    /// The context for connections to `origin` under `configuration` offering `alpn`, loading it on first use: it
    /// presents the client identity the configuration names for the origin's host.
    static func context(
        for configuration: TLSConfiguration, alpn: ALPNOffer = .http1, origin: Origin
    ) -> Result<TLSContext, TLSError> {
        context(for: configuration, alpn: alpn, identity: configuration.clientIdentity(for: origin.host))
    }

    /// The context for `configuration` offering `alpn` and presenting `identity`, loading it on first use.
    static func context(
        for configuration: TLSConfiguration, alpn: ALPNOffer = .http1, identity: TLSConfiguration.ClientIdentity?
    ) -> Result<TLSContext, TLSError> {
        let key = Key(configuration: configuration, alpn: alpn, identity: identity)
        return contexts.withLock { contexts in
            if let cached = contexts[key] { return cached }
            let result: Result<TLSContext, TLSError>
            do throws(TLSError) {
                result = .success(try TLSContext(configuration: configuration, alpn: alpn, identity: identity))
            } catch {
                result = .failure(error)
            }
            contexts[key] = result
            return result
        }
    }
}
