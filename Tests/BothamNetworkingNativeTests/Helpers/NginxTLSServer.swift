import BothamTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// nginx with TLS on a private prefix in a temporary folder, serving files, with a throwaway CA and a server
/// certificate for `localhost` only (no IP address), made with the `openssl` command.
///
/// Needs `nginx` (Debian: `apt-get install -y nginx-light`) and `openssl`; tests using it are skipped without them.
final class NginxTLSServer: Sendable {
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

    let port: Int
    /// A second server, signed by the same CA, whose certificate names only `other.test`.
    let otherNamePort: Int
    /// The first server's certificate and files, also speaking HTTP/2 (ALPN offers `h2` and `http/1.1`).
    let http2Port: Int
    /// HTTP/2 over TLS 1.2 with a CBC cipher suite only, which RFC 9113 §9.2.2 forbids for HTTP/2.
    let http2WeakCipherPort: Int
    let directory: URL
    /// The CA certificate (PEM) that signed the server certificate.
    let caPEM: Data
    /// The base64 SHA-256 of the server certificate's SubjectPublicKeyInfo.
    let serverPin: String
    private let process: Process

    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Makes the certificates and starts nginx on a dispatch thread: the set-up blocks on child processes, and
    /// must not hold one of the few cooperative threads that timing-sensitive tests running in parallel need.
    static func start() async throws -> NginxTLSServer {
        try await offCooperativePool { try NginxTLSServer() }
    }

    private init() throws {
        guard let nginx = Self.nginxPath, Self.opensslPath != nil else {
            throw SetupError(description: "nginx or openssl is not installed")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("html"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        let dir = directory.path
        try Self.shell(
            """
            set -e
            cd '\(dir)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=Botham Test CA' \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null
            printf 'subjectAltName=DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > ext.cnf
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
              -extfile ext.cnf 2>/dev/null
            openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
              | openssl dgst -sha256 -binary | base64 > pin.txt
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout other.key -out other.csr -subj '/CN=other.test' 2>/dev/null
            printf 'subjectAltName=DNS:other.test\\nextendedKeyUsage=serverAuth\\n' > other.cnf
            openssl x509 -req -in other.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out other.pem -days 2 \
              -extfile other.cnf 2>/dev/null
            """
        )
        caPEM = try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
        serverPin = try String(contentsOf: directory.appendingPathComponent("pin.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try Data(String(repeating: "0123456789abcdef", count: 20_000).utf8)
            .write(to: directory.appendingPathComponent("html/big.txt"))
        try Data("hello over TLS".utf8).write(to: directory.appendingPathComponent("html/hello.txt"))
        port = try Self.freePort()
        otherNamePort = try Self.freePort()
        http2Port = try Self.freePort()
        http2WeakCipherPort = try Self.freePort()
        let config = """
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/logs/error.log;
            events { worker_connections 64; }
            http {
              access_log off;
              log_format connections '$connection';
              client_body_temp_path \(dir)/tmp;
              proxy_temp_path \(dir)/tmp;
              fastcgi_temp_path \(dir)/tmp;
              uwsgi_temp_path \(dir)/tmp;
              scgi_temp_path \(dir)/tmp;
              server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(dir)/server.pem;
                ssl_certificate_key \(dir)/server.key;
                root \(dir)/html;
              }
              server {
                listen 127.0.0.1:\(http2Port) ssl http2;
                access_log \(dir)/logs/http2-connections.log connections;
                ssl_certificate \(dir)/server.pem;
                ssl_certificate_key \(dir)/server.key;
                root \(dir)/html;
              }
              server {
                listen 127.0.0.1:\(http2WeakCipherPort) ssl http2;
                ssl_protocols TLSv1.2;
                ssl_ciphers ECDHE-ECDSA-AES128-SHA;
                ssl_certificate \(dir)/server.pem;
                ssl_certificate_key \(dir)/server.key;
                root \(dir)/html;
              }
              server {
                listen 127.0.0.1:\(otherNamePort) ssl;
                ssl_certificate \(dir)/other.pem;
                ssl_certificate_key \(dir)/other.key;
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
        guard Self.waitForListener(port: port), Self.waitForListener(port: otherNamePort),
            Self.waitForListener(port: http2Port), Self.waitForListener(port: http2WeakCipherPort)
        else {
            stop()
            throw SetupError(description: "nginx did not start listening on \(port)")
        }
    }

    /// The serial numbers of the connections that carried the requests served on ``http2Port`` so far (nginx's
    /// `$connection`, one log line per request).
    func http2PortConnections() -> Set<String> {
        let log = directory.appendingPathComponent("logs/http2-connections.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").map(String.init))
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

    private static func freePort() throws -> Int {
        let fd = TestSocket.makeTCP()
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
            }
        }
        guard status == 0 else { throw SetupError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls with blocking connects until nginx accepts, for at most 5 s (nginx gives no other readiness signal).
    private static func waitForListener(port: Int) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let fd = TestSocket.connectLoopback(port: port) {
                close(fd)
                return true
            }
            usleep(20_000)
        }
        return false
    }
}
