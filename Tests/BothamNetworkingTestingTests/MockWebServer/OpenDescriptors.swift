import BothamNetworkingTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `/proc/self/fd` to see which descriptors of this process are open.
enum OpenDescriptors {
    /// Whether `/proc/self/fd` exists (Linux).
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: "/proc/self/fd")
    }

    /// How many entries of `/proc/self/fd` refer to one of `identities`.
    ///
    /// Matching by identity (device and inode) instead of comparing the total count with a baseline keeps the
    /// check exact while other tests open and close descriptors in parallel.
    static func count(matching identities: [DescriptorIdentity]) -> Int {
        let wanted = Set(identities)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            var info = stat()
            guard stat("/proc/self/fd/\(entry)", &info) == 0 else { return false }
            let identity = DescriptorIdentity(
                device: UInt64(truncatingIfNeeded: info.st_dev),
                inode: UInt64(truncatingIfNeeded: info.st_ino)
            )
            return wanted.contains(identity)
        }.count
    }
}
