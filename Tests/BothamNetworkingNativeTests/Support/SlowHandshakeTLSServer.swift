import Foundation

/// A one-shot TLS server (Python's `ssl` module, on loopback) that accepts a connection, waits `delay` before its
/// TLS handshake, then answers one request with a small complete response: a handshake that is slow on the server's
/// side.
///
/// Needs `python3` with `ssl` (every Debian Python); stopped by its process id.
final class SlowHandshakeTLSServer: Sendable {
    let port: Int
    private let server: PythonTLSServerProcess

    static let script = """
        import os, socket, ssl, sys, time
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        print(listener.getsockname()[1], flush=True)
        connection, _ = listener.accept()
        time.sleep(float(sys.argv[3]))
        tls = context.wrap_socket(connection, server_side=True)
        tls.recv(65536)
        tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok")
        tls.close()
        os._exit(0)
        """

    /// Starts the server with the certificate and key at these paths, waiting `delay` before the handshake.
    init(certificate: URL, key: URL, delay: Duration) throws {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        server = try PythonTLSServerProcess(script: Self.script, arguments: [certificate.path, key.path, "\(seconds)"])
        port = server.port
    }

    /// Stops the server (by its process id) if it is still running.
    func stop() { server.stop() }
}
