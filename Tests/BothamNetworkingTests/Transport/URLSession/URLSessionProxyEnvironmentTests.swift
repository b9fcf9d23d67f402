import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Measures what `URLSessionHTTPClient` does with the proxy variables on this platform: FoundationNetworking hands
/// requests to libcurl, and these tests show which variables reach it. They change the process's environment
/// (`setenv`), so they run only in a process of their own: `.ci/run` runs them alone with
/// `BOTHAM_URLSESSION_PROXY_PROBE=1` (and the proxies of scripts/proxies.sh).
@Suite(
    "URLSessionHTTPClient and the proxy environment variables on this platform (measured against tinyproxy)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProxyTestEnvironment.value("BOTHAM_URLSESSION_PROXY_PROBE") == "1" && ProxyTestEnvironment.httpProxy != nil,
        "changes the process environment: run alone with BOTHAM_URLSESSION_PROXY_PROBE=1 and the proxies running"),
    .enabled(
        if: ProxyTestEnvironment.isLinux,
        "pins what FoundationNetworking (libcurl) does on Linux; Apple's URLSession reads the system settings instead")
)
struct URLSessionProxyEnvironmentTests {
    private static let variables = [
        "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
    ]

    /// Sends one request with a new `URLSessionHTTPClient` (a new session: no connection kept from an earlier
    /// case) while exactly `environment` of the proxy variables is set, and returns what reached the origin.
    private func viaURLSession(_ environment: [String: String], path: String) async throws -> RecordedRequest? {
        let server = try Self.recordingServer()
        defer { server.shutdown() }
        for name in Self.variables { unsetenv(name) }
        for (name, value) in environment { setenv(name, value, 1) }
        defer { for name in Self.variables { unsetenv(name) } }
        _ = try? await URLSessionHTTPClient().send(
            HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: path))
        // The one request that reached the origin, if any did (through the proxy or not).
        guard server.requestCount > 0 else { return nil }
        return try await server.takeRequest(timeout: .seconds(1))
    }

    /// An origin that records each request and answers 200 with `ok`.
    private static func recordingServer() throws -> MockWebServer {
        let server = try MockWebServer()
        server.setDispatcher { _ in MockResponse(statusCode: 200, body: Data("ok".utf8)) }
        return server
    }

    private var proxy: String { ProxyTestEnvironment.httpProxy ?? "" }

    @Test("On Linux, http_proxy is honoured: the request arrives through tinyproxy (Via)")
    func lowerCaseHTTPProxy() async throws {
        let request = try #require(try await viaURLSession(["http_proxy": proxy], path: "/lower"))
        #expect(request.header("Via")?.contains("tinyproxy") == true, "\(request.headers)")
    }

    @Test("On Linux, HTTP_PROXY (upper case) is ignored for http, as curl ignores it")
    func upperCaseHTTPProxy() async throws {
        let request = try #require(try await viaURLSession(["HTTP_PROXY": proxy], path: "/upper"))
        #expect(request.header("Via") == nil, "\(request.headers)")
    }

    @Test("On Linux, all_proxy is the fallback and no_proxy exempts a host")
    func allProxyAndNoProxy() async throws {
        let all = try #require(try await viaURLSession(["all_proxy": proxy], path: "/all"))
        #expect(all.header("Via")?.contains("tinyproxy") == true, "\(all.headers)")
        let exempt = try #require(
            try await viaURLSession(["http_proxy": proxy, "no_proxy": "127.0.0.1"], path: "/exempt"))
        #expect(exempt.header("Via") == nil, "\(exempt.headers)")
    }

    @Test("On Linux, https_proxy is honoured: tinyproxy's log shows the CONNECT")
    func httpsProxy() async throws {
        let server = try Self.recordingServer()
        let port = server.port
        defer { server.shutdown() }
        for name in Self.variables { unsetenv(name) }
        setenv("https_proxy", proxy, 1)
        defer { unsetenv("https_proxy") }
        // The origin speaks plain HTTP, so TLS fails after the tunnel opened; the CONNECT is what is measured.
        _ = try? await URLSessionHTTPClient().send(
            HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:\(port)", path: "/"))
        let connects = ProxyTestEnvironment.logLines(ProxyTestEnvironment.httpProxyLog).filter {
            $0.contains("CONNECT 127.0.0.1:\(port) ")
        }
        #expect(!connects.isEmpty, "tinyproxy's log has no CONNECT to 127.0.0.1:\(port)")
    }
}
