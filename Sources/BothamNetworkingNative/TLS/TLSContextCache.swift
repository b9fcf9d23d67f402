import BothamNetworking

/// Loaded TLS contexts by configuration, shared by every client in the process.
///
/// Loading the system trust store costs tens of milliseconds, so it happens once, on the first HTTPS request, not
/// when a client is created. The cache holds one context per distinct configuration for the life of the process.
enum TLSContextCache {
    private static let contexts = Lock([NativeTLSConfiguration: Result<TLSContext, NativeTLSError>]())

    /// The context for `configuration`, loading it on first use.
    static func context(for configuration: NativeTLSConfiguration) -> Result<TLSContext, NativeTLSError> {
        contexts.withLock { contexts in
            if let cached = contexts[configuration] { return cached }
            let result: Result<TLSContext, NativeTLSError>
            do throws(NativeTLSError) {
                result = .success(try TLSContext(configuration: configuration))
            } catch {
                result = .failure(error)
            }
            contexts[configuration] = result
            return result
        }
    }
}
