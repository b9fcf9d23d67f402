import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loaded TLS contexts by configuration, ALPN offer and client identity, shared by every client in the process.
///
/// Loading the system trust store costs tens of milliseconds, so it happens once, on the first HTTPS request, not
/// when a client is created. The cache holds one entry per distinct key for the life of the process; a context's
/// resumable sessions are its own, so two configurations (other pins, roots or identities) never share one. A
/// configuration that reads files (a roots file, identity files) has their stamps (modification time, inode, size)
/// checked on each lookup: when one changed, the entry is loaded again in place, so a renewed certificate serves
/// the next connection and a file that was missing is read once it appears. A configuration without files costs a
/// lookup and nothing else; a load that failed is kept (with its stamps) like one that succeeded.
enum TLSContextCache {
    private struct Key: Hashable {
        let configuration: TLSConfiguration
        let alpn: ALPNOffer
        let identity: TLSConfiguration.ClientIdentity?
    }

    private struct Entry {
        let result: Result<TLSContext, TLSError>
        /// The stamps of the files the load read, in the order ``files(of:_:)`` lists them.
        let stamps: [FileStamp?]
    }

    /// What identifies one version of a file: a rewritten or replaced file has another.
    private struct FileStamp: Hashable {
        let seconds: Int
        let nanoseconds: Int
        let inode: UInt64
        let size: Int64
    }

    private static let entries = Lock([Key: Entry]())

    /// The context for connections to `origin` under `configuration` offering `alpn`, loading it on first use: it
    /// presents the client identity the configuration names for the host TLS names (`localhost` over a Unix socket).
    static func context(
        for configuration: TLSConfiguration, alpn: ALPNOffer = .http1, origin: Origin
    ) -> Result<TLSContext, TLSError> {
        context(for: configuration, alpn: alpn, identity: configuration.clientIdentity(for: origin.tlsOrigin.host))
    }

    /// The context for `configuration` offering `alpn` and presenting `identity`, loading it on first use (and again
    /// when a file it read changed).
    static func context(
        for configuration: TLSConfiguration, alpn: ALPNOffer = .http1, identity: TLSConfiguration.ClientIdentity?
    ) -> Result<TLSContext, TLSError> {
        let key = Key(configuration: configuration, alpn: alpn, identity: identity)
        let paths = files(of: configuration, identity)
        let stamps = paths.isEmpty ? [] : paths.map(stamp)
        return entries.withLock { entries in
            if let entry = entries[key], entry.stamps == stamps { return entry.result }
            let result: Result<TLSContext, TLSError>
            do throws(TLSError) {
                result = .success(try TLSContext(configuration: configuration, alpn: alpn, identity: identity))
            } catch {
                result = .failure(error)
            }
            entries[key] = Entry(result: result, stamps: stamps)
            return result
        }
    }

    /// The paths of the files a context for `configuration` and `identity` reads.
    private static func files(
        of configuration: TLSConfiguration, _ identity: TLSConfiguration.ClientIdentity?
    ) -> [String] {
        var paths: [String] = []
        if case .pemFile(let path) = configuration.trustRoots { paths.append(path) }
        switch identity {
        case .pemFiles(let chain, let key, _): paths += [chain, key]
        case .pkcs12File(let path, _): paths.append(path)
        case .pem, .pkcs12, nil: break
        }
        return paths
    }

    /// The file's stamp, or `nil` when it cannot be read.
    private static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return FileStamp(
            seconds: Int(modified.tv_sec), nanoseconds: Int(modified.tv_nsec), inode: UInt64(info.st_ino),
            size: Int64(info.st_size))
    }
}
