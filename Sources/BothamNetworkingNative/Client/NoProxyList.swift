import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hosts reached without a proxy, written as curl reads `no_proxy`: a comma-separated list of host names,
/// domains, IP addresses and CIDR ranges, or `*` for every host.
///
/// curl's rules, which this follows:
/// - `example.com` and `.example.com` both match `example.com` and every name under it (`api.example.com`), never
///   `notexample.com` or `example.com.org`. Matching ignores case and a trailing dot.
/// - An IP address matches that address only (`::1` without brackets), and a CIDR range (`10.0.0.0/8`,
///   `fd00::/8`) every address in it; neither matches a *name* that resolves there (nothing is resolved to decide).
/// - `*` alone matches every host. Any other `*` is not a wildcard (`*.example.com` matches nothing).
/// - An entry with a port (`example.com:8080`) matches nothing, as in curl, which has no port syntax here: the
///   URL's own port never matters.
/// - Spaces around entries and empty entries are ignored.
public struct NoProxyList: Sendable, Hashable {
    /// The entries as given, trimmed and lower-cased, without empty ones.
    package let entries: [String]

    /// No host is exempt.
    public init() {
        entries = []
    }

    /// The list `text` describes (`"localhost,.corp.example,10.0.0.0/8"`).
    public init(_ text: String) {
        entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether `host` (a name or an IP literal, with or without brackets) is reached directly.
    package func matches(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let address = IPBytes(host)
        for entry in entries {
            if entry == "*" { return true }
            if let address {
                if Self.addressMatches(address, entry: entry) { return true }
                continue
            }
            var name = Substring(entry)
            if name.hasPrefix(".") { name = name.dropFirst() }
            if name.hasSuffix(".") { name = name.dropLast() }
            guard !name.isEmpty else { continue }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }

    private static func addressMatches(_ address: IPBytes, entry: String) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = IPBytes(String(parts[0])), network.bytes.count == address.bytes.count else {
            return false
        }
        var bits = network.bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else { return false }
            bits = prefix
        }
        for index in 0..<network.bytes.count {
            let remaining = bits - index * 8
            if remaining <= 0 { break }
            let mask: UInt8 = remaining >= 8 ? 0xFF : UInt8(truncatingIfNeeded: 0xFF << (8 - remaining))
            if network.bytes[index] & mask != address.bytes[index] & mask { return false }
        }
        return true
    }
}

/// The bytes of an IPv4 (4) or IPv6 (16) literal.
private struct IPBytes {
    let bytes: [UInt8]

    init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }
}
