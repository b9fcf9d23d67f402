import BothamTestSupport
import Foundation

/// A TLS server on loopback (Python's `ssl` module) with the self-signed ``TLSTestCertificates/ecPEM``: it answers
/// each connection's request with `200 ok`, optionally requiring a client certificate. Started with a script that
/// prints its port first, stopped by its process id.
struct URLSessionTLSProbeServer: Sendable {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether `python3` is installed.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

    let port: Int
    private let process: Process
    private let folder: URL

    /// Writes the certificate and key to a temporary folder and starts the server, off the cooperative pool (the
    /// start blocks until Python prints its port).
    static func start(requireClientCertificate: Bool) async throws -> URLSessionTLSProbeServer {
        try await offCooperativePool {
            try URLSessionTLSProbeServer(requireClientCertificate: requireClientCertificate)
        }
    }

    private init(requireClientCertificate: Bool) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-tls-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("server.pem")
        let key = folder.appendingPathComponent("server.key")
        try Data(TLSTestCertificates.ecPEM.utf8).write(to: certificate)
        try Data(TLSTestCertificates.ecKeyPEM.utf8).write(to: key)
        let arguments = [certificate.path, key.path, requireClientCertificate ? "require" : "none"]
        guard let (process, port) = try PythonServerProcess.start(script: Self.script, arguments: arguments) else {
            try? FileManager.default.removeItem(at: folder)
            throw SetupError(description: "the TLS server did not start")
        }
        self.process = process
        self.port = port
    }

    /// Stops the server (by its process id) and removes its files.
    func stop() {
        process.stopBounded()
        try? FileManager.default.removeItem(at: folder)
    }

    private static let script = """
        import signal, socket, ssl, sys
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])  # the test process spawns with it blocked
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        if sys.argv[3] == "require":
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(sys.argv[1])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print(listener.getsockname()[1], flush=True)
        while True:
            connection, _ = listener.accept()
            connection.settimeout(10)
            try:
                tls = context.wrap_socket(connection, server_side=True)
                tls.recv(65536)
                tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok")
                tls.close()
            except Exception:
                connection.close()
        """
}
