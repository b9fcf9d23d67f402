/// Errors thrown by ``MockWebServer``.
public enum MockWebServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``MockWebServer/takeRequest(timeout:)`` waited this long and no request arrived.
    case timeout(Duration)
    /// The server was shut down and has no recorded request left to hand out.
    case serverShutDown
    /// The configured host is not an IPv4 or IPv6 literal (or `localhost`).
    case invalidHost(String)
    /// The configured port is outside `0...65535`.
    case invalidPort(Int)
    /// A system call failed while starting the server.
    case systemCallFailed(operation: String, errno: Int32)

    /// A readable description of the error.
    public var description: String {
        switch self {
        case .timeout(let duration):
            return "MockWebServer: no request arrived within \(duration)"
        case .serverShutDown:
            return "MockWebServer: the server has been shut down"
        case .invalidHost(let host):
            return "MockWebServer: '\(host)' is not an IP address literal"
        case .invalidPort(let port):
            return "MockWebServer: \(port) is not a valid TCP port"
        case .systemCallFailed(let operation, let code):
            return "MockWebServer: \(operation) failed with errno \(code)"
        }
    }
}
