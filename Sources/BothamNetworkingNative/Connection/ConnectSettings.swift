import BothamHTTP2Wire
import BothamNetworking

/// How a ``Connection`` finds and reaches its server, and which HTTP it speaks there: the client's DNS cache, its
/// Happy Eyeballs timing and its HTTP/2 settings.
struct ConnectSettings: Sendable {
    /// The client's name cache, in front of its resolver.
    let dnsCache: DNSCache
    /// Nanoseconds between the starts of two connection attempts (RFC 8305 Connection Attempt Delay).
    let attemptDelay: UInt64
    /// Nanoseconds one connection attempt may take, or `nil` for no limit of its own.
    let attemptTimeout: UInt64?
    /// Whether a cleartext connection (not to an HTTP proxy) speaks HTTP/2 with prior knowledge.
    var cleartextHTTP2 = false
    /// Our side of every HTTP/2 connection: windows, limits, fields never indexed.
    var http2 = HTTP2ConnectionConfiguration()
    /// Nanoseconds an HTTP/2 connection with streams may hear nothing before it sends a PING (`nil`: never).
    var http2PingInterval: UInt64?
    /// Nanoseconds a PING may wait for its answer before the connection counts as dead.
    var http2PingTimeout: UInt64 = 10_000_000_000
    /// Nanoseconds the server may take to acknowledge our SETTINGS.
    var http2SettingsTimeout: UInt64 = 10_000_000_000
    /// How many HTTP/2 connections (not counting those going away) an origin may have: calls beyond their streams
    /// wait for one.
    var http2MaxConnections = 1
    /// Which request fields go as never-indexed literals over HTTP/2: those this redactor hides.
    var http2NeverIndexed = Redactor()
}
