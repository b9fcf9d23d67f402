import BothamNetworking

/// Loaded TLS contexts by configuration, shared by every client in the process.
///
/// Loading the system trust store costs tens of milliseconds, so it happens once, on the first HTTPS request, not
/// when a client is created. The cache holds one context per distinct configuration for the life of the process.
enum TLSContextCache {
    private struct Key: Hashable {
        let configuration: TLSConfiguration
        let alpn: ALPNOffer
    }

    private static let contexts = Lock([Key: Result<TLSContext, TLSError>]())

    /// The context for `configuration` offering `alpn`, loading it on first use.
    static func context(
        for configuration: TLSConfiguration, alpn: ALPNOffer = .http1
    ) -> Result<TLSContext, TLSError> {
        let key = Key(configuration: configuration, alpn: alpn)
        return contexts.withLock { contexts in
            if let cached = contexts[key] { return cached }
            let result: Result<TLSContext, TLSError>
            do throws(TLSError) {
                result = .success(try TLSContext(configuration: configuration, alpn: alpn))
            } catch {
                result = .failure(error)
            }
            contexts[key] = result
            return result
        }
    }
}
