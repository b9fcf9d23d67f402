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
    /// Whether the tests can run here (nginx and openssl installed).
    static var isAvailable: Bool { NginxPrefix.isAvailable }

    typealias SetupError = NginxPrefix.SetupError

    let port: Int
    /// A second server, signed by the same CA, whose certificate names only `other.test`.
    let otherNamePort: Int
    /// The first server's certificate and files, also speaking HTTP/2 (ALPN offers `h2` and `http/1.1`).
    let http2Port: Int
    /// HTTP/2 over TLS 1.2 with a CBC cipher suite only, which RFC 9113 §9.2.2 forbids for HTTP/2.
    let http2WeakCipherPort: Int
    private let prefix: NginxPrefix
    var directory: URL { prefix.directory }
    /// The CA certificate (PEM) that signed the server certificate.
    let caPEM: Data
    /// The base64 SHA-256 of the server certificate's SubjectPublicKeyInfo.
    let serverPin: String
    private let process: Process

    /// Makes the certificates and starts nginx on a dispatch thread: the set-up blocks on child processes, and
    /// must not hold one of the few cooperative threads that timing-sensitive tests running in parallel need.
    static func start() async throws -> NginxTLSServer {
        try await offCooperativePool { try NginxTLSServer() }
    }

    private init() throws {
        prefix = try NginxPrefix(
            name: "native-tls", caName: "Botham Test CA",
            moreCertificates: """
                openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout other.key -out other.csr -subj '/CN=other.test' 2>/dev/null
                printf 'subjectAltName=DNS:other.test\\nextendedKeyUsage=serverAuth\\n' > other.cnf
                openssl x509 -req -in other.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out other.pem -days 2 \
                  -extfile other.cnf 2>/dev/null
                """)
        let dir = prefix.path
        caPEM = try prefix.caPEM()
        serverPin = try prefix.serverPin()
        try prefix.serve(String(repeating: "0123456789abcdef", count: 20_000), as: "big.txt")
        try prefix.serve("hello over TLS", as: "hello.txt")
        port = try NginxPrefix.freePort()
        otherNamePort = try NginxPrefix.freePort()
        http2Port = try NginxPrefix.freePort()
        http2WeakCipherPort = try NginxPrefix.freePort()
        process = try prefix.start(
            http: """
                  access_log off;
                  log_format connections '$connection';
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
                """)
        guard NginxPrefix.waitForListener(port: port), NginxPrefix.waitForListener(port: otherNamePort),
            NginxPrefix.waitForListener(port: http2Port), NginxPrefix.waitForListener(port: http2WeakCipherPort)
        else {
            stop()
            throw SetupError(description: "nginx did not start listening on \(port)")
        }
    }

    /// The serial numbers of the connections that carried the requests served on ``http2Port`` so far (nginx's
    /// `$connection`, one log line per request).
    func http2PortConnections() -> Set<String> {
        Set(prefix.logLines("http2-connections.log"))
    }

    /// Stops nginx (by its process id) and removes the folder.
    func stop() {
        prefix.stop(process)
    }
}
