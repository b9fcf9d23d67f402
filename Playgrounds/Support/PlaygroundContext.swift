import BothamNetworking
import Foundation

/// What a page gets: where the services are, how to print, and how to check.
public struct PlaygroundContext: Sendable {
    /// An httpbin-compatible service: the embedded one, or the real base URL given on the command line.
    public let httpbinURL: String
    /// The embedded service with the GitHub-like, todos, Basic-auth and flaky endpoints (always local).
    public let servicesURL: String
    /// Whether ``httpbinURL`` is a real server rather than the embedded one.
    public let usesRealServer: Bool

    /// Creates a context.
    public init(httpbinURL: String, servicesURL: String, usesRealServer: Bool) {
        self.httpbinURL = httpbinURL
        self.servicesURL = servicesURL
        self.usesRealServer = usesRealServer
    }

    /// Prints a line for the reader.
    public func say(_ text: String) {
        print("  " + text)
    }

    /// Fails the page with `message` unless `condition` holds; prints the check either way.
    public func check(_ condition: Bool, _ message: String) throws {
        print("  \(condition ? "✔" : "✘") \(message)")
        guard condition else { throw PlaygroundFailure(message) }
    }

    /// A client for `baseEndpoint` that logs every request and response to standard output, headers included
    /// (credentials redacted).
    public func client(_ baseEndpoint: String, logDetail: LoggingInterceptor.Detail = .basic) -> BothamAPIClient {
        let apiClient = BothamAPIClient(baseEndpoint: baseEndpoint)
        apiClient.networkInterceptors.append(LoggingInterceptor(detail: logDetail, sink: Self.standardOutput))
        return apiClient
    }

    /// A log sink that prints each line, indented, to standard output.
    public static let standardOutput = LoggingInterceptor.Sink { _, message in
        print("  " + message.replacingOccurrences(of: "\n", with: "\n  "))
    }
}
