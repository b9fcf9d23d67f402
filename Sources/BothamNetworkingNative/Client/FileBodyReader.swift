import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a request body file in chunks as the socket takes them. Loop thread only.
///
/// Regular files never block for long, so reading on the loop thread is fine; the file is opened when the exchange
/// starts sending (a replay after a stale connection opens it again) and closed when it ends.
final class FileBodyReader {
    /// Bytes per read: large enough for few system calls, small enough to keep memory flat.
    static let chunkSize = 64 * 1024

    private let url: URL
    private var fd: Int32
    /// Bytes still to send.
    private(set) var remaining: Int

    /// Opens `url`, whose body is `length` bytes long.
    init(url: URL, length: Int) throws(APIClientError) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw .invalidRequest(reason: "the body file \(DebugText.quoted(url.path)) cannot be opened: \(reason)")
        }
        self.url = url
        self.fd = fd
        remaining = length
    }

    deinit { close() }

    /// The next chunk (at most ``chunkSize`` bytes, never past the announced length), or `nil` once done.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when the file cannot be read or got shorter.
    func next() throws(APIClientError) -> Data? {
        guard remaining > 0 else {
            close()
            return nil
        }
        var chunk = Data(count: min(Self.chunkSize, remaining))
        let fd = self.fd
        let count = chunk.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress, buffer.count) }
        guard count > 0 else {
            let reason = count == 0 ? "ended \(remaining) bytes early" : String(cString: strerror(errno))
            close()
            throw .invalidRequest(reason: "the body file \(DebugText.quoted(url.path)) \(reason)")
        }
        remaining -= count
        if count < chunk.count { chunk.removeSubrange(count...) }
        return chunk
    }

    private func close() {
        guard fd >= 0 else { return }
        Socket.closeDescriptor(fd)
        fd = -1
    }
}
