/// How a ``Connection`` finds and reaches its server: the client's DNS cache and its Happy Eyeballs timing.
struct ConnectSettings: Sendable {
    /// The client's name cache, in front of its resolver.
    let dnsCache: DNSCache
    /// Nanoseconds between the starts of two connection attempts (RFC 8305 Connection Attempt Delay).
    let attemptDelay: UInt64
    /// Nanoseconds one connection attempt may take, or `nil` for no limit of its own.
    let attemptTimeout: UInt64?
}
