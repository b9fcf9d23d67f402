import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// The defaults of issue #21's settings, each as the README's "Defaults" table states it: the values, and what a
/// client made with `Configuration()` does with them.
@Suite("The real-network defaults the README's table states", .timeLimit(.minutes(1)))
struct RealNetworkDefaultsTests {
    @Test("Configuration() has the documented values: 250 ms, no attempt limit, 10 s, 30 s, 1 s, 256, no proxy")
    func configurationValues() {
        let configuration = NativeHTTPClient.Configuration()
        #expect(configuration.connectionAttemptDelay == .milliseconds(250))
        #expect(configuration.connectionAttemptTimeout == nil)
        #expect(configuration.limits.connectTimeout == .seconds(10))
        #expect(configuration.dnsCacheTTL == .seconds(30))
        #expect(configuration.dnsFailureCacheTTL == .seconds(1))
        #expect(configuration.dnsCacheSize == 256)
        #expect(configuration.proxy == .none)
        #expect(configuration.proxy.authenticator == nil)
        let settings = configuration.makeConnectSettings()
        #expect(settings.attemptDelay == 250_000_000)
        #expect(settings.attemptTimeout == nil)
    }

    @Test("The attempt delay is never below RFC 8305's 10 ms minimum")
    func attemptDelayFloor() {
        var configuration = NativeHTTPClient.Configuration()
        configuration.connectionAttemptDelay = .zero
        #expect(configuration.makeConnectSettings().attemptDelay == 10_000_000)
    }

    @Test("By default a blackholed first address costs the 250 ms attempt delay, not the 10 s connect timeout")
    func defaultAttemptDelay() async throws {
        let blackhole = try await LoopbackBlackhole.make(.ipv4)
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("second address"))
        let good = try #require(NetworkAddress(ip: "127.0.0.1", port: server.port))
        let resolver = TableResolver(["two.test": [blackhole.address, good]])
        let client = NativeHTTPClient(configuration: withResolver(resolver))
        let start = ContinuousClock.now
        let response = try await client.send(HTTPRequest(method: .get, baseEndpoint: "http://two.test:\(server.port)"))
        let elapsed = seconds(since: start)
        #expect(response.body == Data("second address".utf8))
        #expect(elapsed >= 0.24, "the second attempt started before 250 ms: \(elapsed) s")
        #expect(elapsed < 0.25 + TestTimeScale.scaled(seconds: 2.5, since: start), "took \(elapsed) s")
        withExtendedLifetime(blackhole) {}
    }

    @Test("By default answers are cached (one lookup for two calls) and so are failures (one lookup for two misses)")
    func defaultDNSCache() async throws {
        let server = try recordingServer()
        defer { server.shutdown() }
        let address = try #require(NetworkAddress(ip: "127.0.0.1", port: server.port))
        let resolver = TableResolver(["cached.test": [address]])
        let client = NativeHTTPClient(configuration: withResolver(resolver))
        for _ in 0..<2 {
            let request = HTTPRequest(method: .get, baseEndpoint: "http://cached.test:\(server.port)")
            #expect(try await client.send(request).statusCode == 200)
        }
        #expect(resolver.calls.value == 1)
        // Failures are cached by default too; the default TTL (1 s, pinned above) is widened here so a loaded machine
        // cannot outlast it between the two misses.
        var widened = withResolver(resolver)
        widened.dnsFailureCacheTTL = .seconds(60)
        let failing = NativeHTTPClient(configuration: widened)
        let missing = HTTPRequest(method: .get, baseEndpoint: "http://missing.test:\(server.port)")
        for _ in 0..<2 {
            #expect(await failure(of: missing, with: failing).map(failureKind(of:)) == .cannotFindHost)
        }
        #expect(resolver.calls.value == 2, "the second miss came from the failure cache")
    }

    @Test("A default CookieJar keeps 50 cookies per domain and 3000 in all, the oldest dropped first")
    func defaultCookieLimits() throws {
        let jar = CookieJar()
        let url = try #require(URL(string: "https://example.com/"))
        jar.store((0...50).map { "c\($0)=v; Max-Age=3600" }, from: url)
        let kept = jar.cookies(for: url).map(\.name)
        #expect(kept.count == 50)
        #expect(!kept.contains("c0"), "the oldest went")
        for domain in 0..<60 {
            let other = try #require(URL(string: "https://d\(domain).example.org/"))
            jar.store((0..<50).map { "c\($0)=v; Max-Age=3600" }, from: other)
        }
        #expect(jar.allCookies.count == 3000)
    }

    /// The default configuration with `resolver`.
    private func withResolver(_ resolver: TableResolver) -> NativeHTTPClient.Configuration {
        var configuration = NativeHTTPClient.Configuration()
        configuration.nameResolver = resolver
        return configuration
    }
}
