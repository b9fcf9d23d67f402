import Foundation

/// A one-shot TLS server (Python's `ssl` module, on loopback) that answers with a close-delimited response and then
/// closes the TCP connection without sending TLS `close_notify`: what a truncation attack looks like to the client.
///
/// Needs `python3` with `ssl` (every Debian Python); stopped by its process id.
final class TruncatingTLSServer: Sendable {
    let port: Int
    private let server: PythonTLSServerProcess

    static let script = """
        import os, socket, ssl, sys
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        print(listener.getsockname()[1], flush=True)
        connection, _ = listener.accept()
        tls = context.wrap_socket(connection, server_side=True)
        tls.recv(65536)
        tls.sendall(b"HTTP/1.1 200 OK\\r\\nConnection: close\\r\\n\\r\\npartial body")
        os.close(tls.fileno())  # the TCP connection ends here, with no TLS close_notify
        os._exit(0)
        """

    /// Starts the server with the certificate and key at these paths.
    init(certificate: URL, key: URL) throws {
        server = try PythonTLSServerProcess(script: Self.script, arguments: [certificate.path, key.path])
        port = server.port
    }

    /// Stops the server (by its process id) if it is still running.
    func stop() { server.stop() }
}
