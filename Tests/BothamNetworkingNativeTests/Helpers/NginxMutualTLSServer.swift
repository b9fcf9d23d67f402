import BothamNetworking
import BothamTestSupport
import Foundation

/// nginx demanding client certificates (`ssl_verify_client on`) from a throwaway client CA, and answering with which
/// certificate it got: every response carries `X-Client-DN` (`$ssl_client_s_dn`), `X-Client-Verify`
/// (`$ssl_client_verify`), `X-Session-Reused` (`$ssl_session_reused`: `r` or `.`) and `X-TLS-Protocol`. Without a
/// valid certificate nginx finishes the handshake and answers 400 (its verify callback accepts every chain and the
/// HTTP layer refuses). Every server names its protocols: nginx 1.22 otherwise lets one server's
/// `ssl_protocols TLSv1.2` hold for the others.
///
/// The certificates, made with the `openssl` command in the prefix: the server's for `localhost` and `127.0.0.1`
/// (with ``NginxPrefix``'s key and CA); a client root CA, an intermediate CA it signed, and the clients `alice` (signed by the
/// intermediate: her chain file holds both) and `bob` (signed by the root); `mallory` from another CA. Alice's key
/// also exists encrypted (password ``keyPassword``) and as a PKCS#12 archive (password ``archivePassword``).
///
/// Needs `nginx` and `openssl` (``NginxPrefix``).
final class NginxMutualTLSServer: Sendable {
    /// Whether the tests can run here.
    static var isAvailable: Bool { NginxPrefix.isAvailable }

    static let keyPassword = "key-secret"
    static let archivePassword = "archive-secret"

    /// HTTP/1.1, TLS 1.2 and 1.3, client certificate required.
    let port: Int
    /// The same with HTTP/2 (ALPN `h2`).
    let http2Port: Int
    /// TLS 1.2 only, client certificate required.
    let tls12Port: Int
    /// No client certificate asked for, `Connection: close` on every response: each request opens a connection.
    let closingPort: Int
    /// The same over TLS 1.2 only.
    let closingTLS12Port: Int
    private let prefix: NginxPrefix
    private let process: Process
    /// The CA certificate (PEM) that signed the server certificate.
    let caPEM: Data
    /// The base64 SHA-256 of the server certificate's SubjectPublicKeyInfo.
    let serverPin: String

    /// The path of a file in the prefix.
    func path(_ name: String) -> String { prefix.directory.appendingPathComponent(name).path }

    /// The contents of a file in the prefix.
    func file(_ name: String) throws -> Data { try Data(contentsOf: prefix.directory.appendingPathComponent(name)) }

    /// Makes the certificates and starts nginx off the cooperative pool (the set-up blocks on child processes).
    static func start() async throws -> NginxMutualTLSServer {
        try await offCooperativePool { try NginxMutualTLSServer() }
    }

    /// The lines making the client certificates, run in the prefix after its CA and server certificate.
    static let clientCertificates = """
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nextendedKeyUsage=serverAuth\\n' > both.cnf
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out both.pem -days 2 \
          -extfile both.cnf 2>/dev/null
        ec() { openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "$@" 2>/dev/null; }
        printf 'basicConstraints=critical,CA:TRUE\\nkeyUsage=critical,keyCertSign\\n' > ca.cnf
        printf 'extendedKeyUsage=clientAuth\\n' > client.cnf
        ec -x509 -keyout client-ca.key -out client-ca.pem -days 2 -subj '/CN=Botham Client Root' \
          -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
        ec -keyout intermediate.key -out intermediate.csr -subj '/CN=Botham Client Intermediate'
        openssl x509 -req -in intermediate.csr -CA client-ca.pem -CAkey client-ca.key -CAcreateserial \
          -out intermediate.pem -days 2 -extfile ca.cnf 2>/dev/null
        ec -keyout alice.key -out alice.csr -subj '/CN=alice'
        openssl x509 -req -in alice.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial \
          -out alice.pem -days 2 -extfile client.cnf 2>/dev/null
        cat alice.pem intermediate.pem > alice-chain.pem
        openssl pkey -in alice.key -aes256 -passout pass:\(keyPassword) -out alice-encrypted.key
        openssl pkcs12 -export -in alice.pem -inkey alice.key -certfile intermediate.pem \
          -passout pass:\(archivePassword) -out alice.p12
        ec -keyout bob.key -out bob.csr -subj '/CN=bob'
        openssl x509 -req -in bob.csr -CA client-ca.pem -CAkey client-ca.key -CAcreateserial \
          -out bob.pem -days 2 -extfile client.cnf 2>/dev/null
        ec -x509 -keyout rogue-ca.key -out rogue-ca.pem -days 2 -subj '/CN=Rogue CA' \
          -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
        ec -keyout mallory.key -out mallory.csr -subj '/CN=mallory'
        openssl x509 -req -in mallory.csr -CA rogue-ca.pem -CAkey rogue-ca.key -CAcreateserial \
          -out mallory.pem -days 2 -extfile client.cnf 2>/dev/null
        """

    private init() throws {
        prefix = try NginxPrefix(
            name: "native-mtls", caName: "Botham Test CA", moreCertificates: Self.clientCertificates)
        let dir = prefix.path
        caPEM = try prefix.caPEM()
        serverPin = try prefix.serverPin()
        try prefix.serve("hello, client", as: "hello.txt")
        port = try NginxPrefix.freePort()
        http2Port = try NginxPrefix.freePort()
        tls12Port = try NginxPrefix.freePort()
        closingPort = try NginxPrefix.freePort()
        closingTLS12Port = try NginxPrefix.freePort()
        let common = """
                ssl_certificate \(dir)/both.pem;
                ssl_certificate_key \(dir)/server.key;
                ssl_session_cache shared:botham:1m;
                root \(dir)/html;
                add_header X-Client-DN $ssl_client_s_dn always;
                add_header X-Client-Verify $ssl_client_verify always;
                add_header X-Session-Reused $ssl_session_reused always;
                add_header X-TLS-Protocol $ssl_protocol always;
            """
        let verifying = """
                ssl_verify_client on;
                ssl_verify_depth 3;
                ssl_client_certificate \(dir)/client-ca.pem;
            """
        process = try prefix.start(
            http: """
                  access_log off;
                  server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_protocols TLSv1.2 TLSv1.3;
                \(common)
                \(verifying)
                  }
                  server {
                    listen 127.0.0.1:\(http2Port) ssl http2;
                    ssl_protocols TLSv1.2 TLSv1.3;
                \(common)
                \(verifying)
                  }
                  server {
                    listen 127.0.0.1:\(tls12Port) ssl;
                    ssl_protocols TLSv1.2;
                \(common)
                \(verifying)
                  }
                  server {
                    listen 127.0.0.1:\(closingPort) ssl;
                    ssl_protocols TLSv1.2 TLSv1.3;
                    keepalive_timeout 0;
                \(common)
                  }
                  server {
                    listen 127.0.0.1:\(closingTLS12Port) ssl;
                    ssl_protocols TLSv1.2;
                    keepalive_timeout 0;
                \(common)
                  }
                """)
        for listening in [port, http2Port, tls12Port, closingPort, closingTLS12Port]
        where !NginxPrefix.waitForListener(port: listening) {
            stop()
            throw NginxPrefix.SetupError(description: "nginx did not start listening on \(listening)")
        }
    }

    /// Stops nginx (by its process id) and removes the folder.
    func stop() {
        prefix.stop(process)
    }

    /// Alice's identity as PEM data: her certificate, then the intermediate; her unencrypted key.
    func alicePEM() throws -> TLSConfiguration.ClientIdentity {
        .pem(certificateChain: try file("alice-chain.pem"), privateKey: try file("alice.key"))
    }

    /// Bob's identity (signed by the client root directly), as files.
    var bob: TLSConfiguration.ClientIdentity {
        .pemFiles(certificateChain: path("bob.pem"), privateKey: path("bob.key"))
    }

    /// Mallory's identity, from a CA nginx does not trust.
    var mallory: TLSConfiguration.ClientIdentity {
        .pemFiles(certificateChain: path("mallory.pem"), privateKey: path("mallory.key"))
    }
}
