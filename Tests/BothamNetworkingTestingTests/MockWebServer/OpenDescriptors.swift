import BothamNetworkingTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `/proc/self/fd` (Linux) or `/dev/fd` (Darwin) to see which descriptors of this process are open.
enum OpenDescriptors {
    /// The directory listing this process's open descriptors, or `nil` when the platform has none.
    static let directory: String? = ["/proc/self/fd", "/dev/fd"].first { FileManager.default.fileExists(atPath: $0) }

    /// There is no descriptor directory on this platform.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "no /proc/self/fd or /dev/fd to list the open descriptors" }
    }

    /// How many entries of the descriptor directory refer to one of `identities`; throws when it cannot be listed
    /// (a listing that failed must not read as "nothing left open").
    ///
    /// Matching by identity (device and inode) instead of comparing the total count with a baseline keeps the
    /// check exact while other tests open and close descriptors in parallel.
    static func count(matching identities: [DescriptorIdentity]) throws -> Int {
        let wanted = Set(identities)
        guard let directory else { throw Unavailable() }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        return entries.filter { entry in
            var info = stat()
            guard stat("\(directory)/\(entry)", &info) == 0 else { return false }
            let identity = DescriptorIdentity(
                device: UInt64(truncatingIfNeeded: info.st_dev),
                inode: UInt64(truncatingIfNeeded: info.st_ino)
            )
            return wanted.contains(identity)
        }.count
    }
}
