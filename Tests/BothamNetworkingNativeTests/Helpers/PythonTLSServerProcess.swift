import BothamTestSupport
import Foundation

/// A one-shot TLS server (Python's `ssl` module, on loopback) for the faults nginx cannot make: started with a script
/// that prints its port first, stopped by its process id. Needs `python3` with `ssl` (every Debian Python).
struct PythonTLSServerProcess: Sendable {
    let port: Int
    private let process: Process

    /// Answers with a close-delimited response, then closes the TCP connection without sending TLS `close_notify`:
    /// what a truncation attack looks like to the client.
    static func truncating(certificate: URL, key: URL) async throws -> PythonTLSServerProcess {
        try await offCooperativePool {
            try PythonTLSServerProcess(script: truncatingScript, arguments: [certificate.path, key.path])
        }
    }

    /// Accepts a connection, waits `delay` before its TLS handshake, then answers one request with a small complete
    /// response: a handshake that is slow on the server's side.
    static func slowHandshake(certificate: URL, key: URL, delay: Duration) async throws -> PythonTLSServerProcess {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        return try await offCooperativePool {
            try PythonTLSServerProcess(
                script: slowHandshakeScript, arguments: [certificate.path, key.path, "\(seconds)"])
        }
    }

    /// Starts `script` with `arguments` (``PythonServerProcess/start(script:arguments:)``); it blocks: the factories
    /// run it off the cooperative pool.
    init(script: String, arguments: [String]) throws {
        guard let (process, port) = try PythonServerProcess.start(script: script, arguments: arguments) else {
            throw NginxTLSServer.SetupError(description: "the TLS server did not start")
        }
        self.process = process
        self.port = port
    }

    /// Stops the server (by its process id) if it is still running.
    func stop() {
        process.stopBounded()
    }

    static let truncatingScript = """
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

    static let slowHandshakeScript = """
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
}
