import BothamNetworking
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a response body to its file as it is parsed, so it is never held in memory. Loop thread only.
///
/// The file is created (or emptied) when the exchange starts, so a response without a body leaves an empty file,
/// and each hop of a redirect starts it over. Regular files never block for long, so writing on the loop thread is
/// fine, as for ``FileBodyReader``. A write that fails is kept as ``failure`` (a ``APIClientError/downloadDestinationError(_:)``,
/// as the default transport reports it) and ends the exchange.
final class ResponseBodyFile {
    let url: URL
    private var fd: Int32 = -1
    /// Why writing failed, if it did.
    private(set) var failure: APIClientError?

    init(url: URL) {
        self.url = url
    }

    deinit { finish() }

    /// Creates or empties the file.
    func create() throws(NativeTransportError) {
        finish()
        failure = nil
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("cannot be created") }
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(NativeTransportError) {
        guard fd >= 0 else { throw fail("is not open") }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw fail("cannot be written")
            }
            offset += written
        }
    }

    /// Closes the file (it stays on disk; the client removes the files of failed calls).
    func finish() {
        guard fd >= 0 else { return }
        Socket.closeDescriptor(fd)
        fd = -1
    }

    private func fail(_ what: String) -> NativeTransportError {
        let code = errno  // before closing the file, which may change it
        let reason = "the body file \(what): \(String(cString: strerror(code)))"
        failure = .downloadDestinationError(
            ResponseBodyDestination.Failure(kind: .cannotWrite, url: url, reason: reason))
        finish()
        return NativeTransportError(code: .socket, reason: reason, systemErrno: code)
    }
}
