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
    /// Where nginx is, if installed.
    static let nginxPath: String? = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Where openssl is, if installed.
    static let opensslPath: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether the tests can run here.
    static var isAvailable: Bool { nginxPath != nil && opensslPath != nil }

    let directory: URL
    /// HTTP/1.1.
    let http1Socket: String
    /// Cleartext HTTP/2 with prior knowledge.
    let http2Socket: String
    /// HTTPS (HTTP/1.1) with a certificate for `localhost` signed by ``caPEM``.
    let tlsSocket: String
    /// The CA certificate (PEM) that signed the server certificate.
    let caPEM: Data
    private let process: Process

    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Makes the certificate and starts nginx, off the cooperative pool (the set-up waits for child processes).
    static func start() async throws -> UnixSocketNginxServer {
        try await offCooperativePool { try UnixSocketNginxServer() }
    }

    private init() throws {
        guard let nginx = Self.nginxPath, Self.opensslPath != nil else {
            throw SetupError(description: "nginx or openssl is not installed")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uds-nginx-\(UUID().uuidString.prefix(8))")
        for folder in ["html", "logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let dir = directory.path
        http1Socket = "\(dir)/http1.sock"
        http2Socket = "\(dir)/h2c.sock"
        tlsSocket = "\(dir)/tls.sock"
        try Self.shell(
            """
            set -e
            cd '\(dir)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=Botham UDS Test CA' \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null
            printf 'subjectAltName=DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > ext.cnf
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
              -extfile ext.cnf 2>/dev/null
            """
        )
        caPEM = try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
        try Data("hello over a socket".utf8).write(to: directory.appendingPathComponent("html/hello.txt"))
        try Data(String(repeating: "0123456789abcdef", count: 20_000).utf8)
            .write(to: directory.appendingPathComponent("html/big.txt"))
        let config = """
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/logs/error.log;
            events { worker_connections 64; }
            http {
              log_format connections '$connection $server_protocol $http_host';
              client_body_temp_path \(dir)/tmp;
              proxy_temp_path \(dir)/tmp;
              fastcgi_temp_path \(dir)/tmp;
              uwsgi_temp_path \(dir)/tmp;
              scgi_temp_path \(dir)/tmp;
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
                access_log \(dir)/logs/tls.log connections;
                ssl_certificate \(dir)/server.pem;
                ssl_certificate_key \(dir)/server.key;
                root \(dir)/html;
              }
            }
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("nginx.conf"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", dir, "-c", "\(dir)/nginx.conf", "-e", "\(dir)/logs/error.log", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard [http1Socket, http2Socket, tlsSocket].allSatisfy(Self.waitForListener) else {
            stop()
            throw SetupError(description: "nginx did not start listening on its sockets in \(dir)")
        }
    }

    /// The log lines (`$connection $server_protocol $http_host`) of the requests served on `socket` so far.
    func log(of socket: String) -> [String] {
        let name = socket == http1Socket ? "http1" : socket == http2Socket ? "h2c" : "tls"
        let log = directory.appendingPathComponent("logs/\(name).log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops nginx (by its process id) and removes the folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func shell(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SetupError(description: "certificate setup failed") }
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
