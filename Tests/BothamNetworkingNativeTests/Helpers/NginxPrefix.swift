import BothamTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private nginx prefix in a temporary folder, what every nginx the tests start shares: the folders, a throwaway CA
/// with a server certificate for `localhost` (made with the `openssl` command), the configuration's fixed part, and
/// the process, started in the foreground and stopped by its process id.
///
/// Needs `nginx` (Debian: `apt-get install -y nginx-light`) and `openssl`; `.ci/run` installs both.
struct NginxPrefix: Sendable {
    /// Where nginx is, if installed.
    static let nginxPath: String? = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Where openssl is, if installed.
    static let opensslPath: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether nginx can run here.
    static var isAvailable: Bool { nginxPath != nil && opensslPath != nil }

    /// Why a server could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder: `html/` (the files served), `logs/`, `tmp/`, and the certificates.
    let directory: URL
    /// The folder's path.
    var path: String { directory.path }

    /// A new prefix named `name-<random>`, with a CA (`ca.pem`, named `caName`) and its certificate for `localhost`
    /// (`server.pem`, `server.key`); `moreCertificates` runs after, in the folder (other names, pins).
    init(name: String, caName: String, moreCertificates: String = "") throws {
        guard Self.isAvailable else { throw SetupError(description: "nginx or openssl is not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(name)-\(UUID().uuidString.prefix(8))")
        for folder in ["html", "logs", "tmp"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Self.shell(
            """
            set -e
            cd '\(directory.path)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=\(caName)' \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null
            printf 'subjectAltName=DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > ext.cnf
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
              -extfile ext.cnf 2>/dev/null
            openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
              | openssl dgst -sha256 -binary | base64 > pin.txt
            \(moreCertificates)
            """
        )
    }

    /// The CA certificate (PEM).
    func caPEM() throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("ca.pem"))
    }

    /// The base64 SHA-256 of the server certificate's SubjectPublicKeyInfo (as `openssl` computes it).
    func serverPin() throws -> String {
        try String(contentsOf: directory.appendingPathComponent("pin.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A free loopback TCP port (bound, read, released).
    static func freePort() throws -> Int {
        try BoundSocket(.ipv4).address.port
    }

    /// Polls with blocking connects until nginx accepts, for at most 5 s (nginx gives no other readiness signal).
    static func waitForListener(port: Int) -> Bool {
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

    /// Writes `text` to `html/name`.
    func serve(_ text: String, as name: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent("html/\(name)"))
    }

    /// Starts nginx with `http`, the body of its `http` block (servers, log formats), after the fixed part (one
    /// worker, the pid, the error log, temporary files in the prefix).
    func start(http: String) throws -> Process {
        guard let nginx = Self.nginxPath else { throw SetupError(description: "nginx is not installed") }
        let config = """
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/logs/error.log;
            events { worker_connections 64; }
            http {
              client_body_temp_path \(path)/tmp;
              proxy_temp_path \(path)/tmp;
              fastcgi_temp_path \(path)/tmp;
              uwsgi_temp_path \(path)/tmp;
              scgi_temp_path \(path)/tmp;
            \(http)
            }
            """
        try Data(config.utf8).write(to: directory.appendingPathComponent("nginx.conf"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = [
            "-p", path, "-c", "\(path)/nginx.conf", "-e", "\(path)/logs/error.log", "-g", "daemon off;",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops `process` (by its process id) and removes the folder.
    func stop(_ process: Process) {
        process.stopBounded()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The lines of `logs/name`.
    func logLines(_ name: String) -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("logs/\(name)"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    private static func shell(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SetupError(description: "certificate setup failed") }
    }
}
