import Foundation

/// A one-shot TLS server (Python's `ssl` module, on loopback) that accepts a connection, waits `delay` before its
/// TLS handshake, then answers one request with a small complete response: a handshake that is slow on the server's
/// side.
///
/// Needs `python3` with `ssl` (every Debian Python); stopped by its process id.
final class SlowHandshakeTLSServer: Sendable {
    let port: Int
    private let process: Process

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        process.arguments = ["python3", "-c", Self.script, certificate.path, key.path, "\(seconds)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The first line is the port; reading it waits for the server to listen (bounded by the suite's time limit).
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw NginxTLSServer.SetupError(description: "the TLS server did not start")
        }
        self.port = port
    }

    /// Stops the server (by its process id) if it is still running.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
