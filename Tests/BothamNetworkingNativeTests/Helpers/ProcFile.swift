#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads files of `/proc` whole.
///
/// `String(contentsOfFile:)` is not enough there: it reads one page of a file like `/proc/net/tcp` (about 27
/// sockets), so a socket further down the table is silently missing. This reads until the end.
enum ProcFile {
    /// The whole text of `path`, or `nil` when it cannot be opened or read (not Linux).
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `read(2)` under a name that does not clash with ``ProcFile/read(_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
