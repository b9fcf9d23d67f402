/// Turns a host name into the addresses ``NativeHTTPClient`` may connect to: set one on
/// ``NativeHTTPClient/Configuration/nameResolver`` to map names yourself (tests, service discovery, pinned
/// addresses). The default, ``SystemNameResolver``, asks `getaddrinfo`.
///
/// ```swift
/// struct FixedResolver: NameResolving {
///     func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
///         [NetworkAddress(ip: "::1", port: port), NetworkAddress(ip: "127.0.0.1", port: port)].compactMap { $0 }
///     }
/// }
/// ```
///
/// The client never asks about IP literals (`https://127.0.0.1/`, `http://[::1]:8080/`), keeps answers in its DNS
/// cache (``NativeHTTPClient/Configuration/dnsCacheTTL``), and orders the addresses itself for Happy Eyeballs (IPv6
/// first, then alternating families), so the order of the answer only matters within a family. ``resolve(host:port:)``
/// runs on dispatch threads of the client's own (from macOS 15 / iOS 18 on Apple platforms; the global executor
/// before), never on the event loop, so a resolver may block.
package protocol NameResolving: Sendable {
    /// The addresses of `host` (a name, never an IP literal), each with `port` unless the resolver knows better.
    /// An empty answer or a thrown error fails the request with `cannotFindHost`, carrying a
    /// ``NativeTransportError``: the one thrown, or one with code `nameResolution` whose reason includes the thrown
    /// error's description.
    func resolve(host: String, port: Int) async throws -> [NetworkAddress]
}

/// The system's resolver: `getaddrinfo` (`AI_ADDRCONFIG`, IPv4 and IPv6 stream addresses) on a dispatch queue of
/// its own, never on the event loop (it blocks). It reports no time to live, hence the client's own cache.
package struct SystemNameResolver: NameResolving {
    /// Creates the system resolver.
    package init() {}

    /// Asks `getaddrinfo`; throws a ``NativeTransportError`` with code `nameResolution` when it fails.
    package func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        let result = await withCheckedContinuation { continuation in
            NameResolver.resolve(host: host, port: port) { continuation.resume(returning: $0) }
        }
        return try result.get().compactMap(NetworkAddress.init)
    }
}
