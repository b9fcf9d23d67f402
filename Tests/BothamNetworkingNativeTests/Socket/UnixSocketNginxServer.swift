import BothamTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// nginx listening only on Unix domain sockets in a temporary folder: HTTP/1.1 on ``http1Socket``, cleartext HTTP/2
/// (prior knowledge) on ``http2Socket`` and HTTPS on ``tlsSocket`` (a throwaway CA and a certificate for
/// `localhost`, made with the `openssl` command). Every server logs `$connection $server_protocol $http_host` per
/// request, so a test can tell which connection carried each call.
///
/// Needs `nginx` (Debian: `apt-get install -y nginx-light`) and `openssl`; `.ci/run` installs both.
final class UnixSocketNginxServer: Sendable {
    /// Whether the tests can run here (nginx and openssl installed).
    static var isAvailable: Bool { NginxPrefix.isAvailable }

    private let prefix: NginxPrefix
    /// HTTP/1.1.
    let http1Socket: String
    /// Cleartext HTTP/2 with prior knowledge.
    let http2Socket: String
    /// HTTPS (HTTP/1.1) with a certificate for `localhost` signed by ``caPEM``.
    let tlsSocket: String
    /// A second socket of the same HTTPS server (same certificate, same session ticket keys).
    let otherTLSSocket: String
    /// The CA certificate (PEM) that signed the server certificate.
    let caPEM: Data
    private let process: Process

    /// Makes the certificate and starts nginx, off the cooperative pool (the set-up waits for child processes).
    static func start() async throws -> UnixSocketNginxServer {
        try await offCooperativePool { try UnixSocketNginxServer() }
    }

    private init() throws {
        prefix = try NginxPrefix(name: "uds-nginx", caName: "Botham UDS Test CA")
        let dir = prefix.path
        http1Socket = "\(dir)/http1.sock"
        http2Socket = "\(dir)/h2c.sock"
        tlsSocket = "\(dir)/tls.sock"
        otherTLSSocket = "\(dir)/tls-other.sock"
        caPEM = try prefix.caPEM()
        try prefix.serve("hello over a socket", as: "hello.txt")
        try prefix.serve(String(repeating: "0123456789abcdef", count: 20_000), as: "big.txt")
        process = try prefix.start(
            http: """
                  log_format connections '$connection $server_protocol $http_host';
                  log_format tls '$connection $server_protocol $http_host $ssl_session_reused';
                  server {
                    listen unix:\(http1Socket);
                    access_log \(dir)/logs/http1.log connections;
                    root \(dir)/html;
                  }
                  server {
                    listen unix:\(http2Socket) http2;
                    access_log \(dir)/logs/h2c.log connections;
                    root \(dir)/html;
                  }
                  server {
                    listen unix:\(tlsSocket) ssl;
                    listen unix:\(otherTLSSocket) ssl;
                    access_log \(dir)/logs/tls.log tls;
                    ssl_certificate \(dir)/server.pem;
                    ssl_certificate_key \(dir)/server.key;
                    root \(dir)/html;
                  }
                """)
        guard [http1Socket, http2Socket, tlsSocket, otherTLSSocket].allSatisfy(Self.waitForListener) else {
            stop()
            throw NginxPrefix.SetupError(description: "nginx did not start listening on its sockets in \(dir)")
        }
    }

    /// The log lines (`$connection $server_protocol $http_host`, and over TLS `$ssl_session_reused`) of the
    /// requests served on `socket` so far; both TLS sockets share one log.
    func log(of socket: String) -> [String] {
        prefix.logLines(socket == http1Socket ? "http1.log" : socket == http2Socket ? "h2c.log" : "tls.log")
    }

    /// Stops nginx (by its process id) and removes the folder.
    func stop() {
        prefix.stop(process)
    }

    /// Polls with blocking connects until something accepts on the socket file `path`, for at most 5 s (nginx
    /// gives no other readiness signal).
    private static func waitForListener(_ path: String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if connects(to: path) { return true }
            usleep(20_000)
        }
        return false
    }

    private static func connects(to path: String) -> Bool {
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
