import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// A resolver that answers `127.0.0.1` for every name after `delay`, counting its lookups.
private struct DelayedLoopbackResolver: NameResolving {
    let delay: Duration
    let calls = Counter()

    func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        calls.increment()
        try await Task.sleep(for: delay)  // the injected lookup time the timings must show, not synchronisation
        return [NetworkAddress(ip: "127.0.0.1", port: port)].compactMap { $0 }
    }
}

/// Checks that the phases of `timings` follow one another: each starts no earlier than the previous one ended.
func expectOrdered(_ timings: HTTPResponse.Timings, sourceLocation: SourceLocation = #_sourceLocation) {
    let phases = timings.phases
    for (earlier, later) in zip(phases, phases.dropFirst()) {
        #expect(
            earlier.phase.end <= later.phase.start, "\(earlier.name) ends after \(later.name) starts: \(timings)",
            sourceLocation: sourceLocation)
    }
    for phase in phases {
        #expect(phase.phase.start >= .zero, "\(phase.name) starts before the exchange", sourceLocation: sourceLocation)
    }
}

@Suite("NativeHTTPClient per-phase timings", .timeLimit(.minutes(1)))
struct NativeTimingsTests {
    @Test("Over http by name every phase but TLS is present and ordered; the lookup takes the resolver's time")
    func everyPhaseOverHTTP() async throws {
        let server = try makeServer { _ in MockResponse().withBody("hello") }
        defer { server.shutdown() }
        let resolver = DelayedLoopbackResolver(delay: .milliseconds(100))
        let client = makeClient { $0.nameResolver = resolver }
        let port = try #require(server.baseURL.port)
        let request = HTTPRequest(method: .get, baseEndpoint: "http://timings.test:\(port)", path: "/")

        let response = try await client.send(request)

        let timings = try #require(response.timings)
        #expect(timings.reusedConnection == false)
        #expect(timings.tlsHandshake == nil)
        #expect(timings.phases.map(\.name) == ["dns", "connect", "send", "wait", "receive"], "\(timings)")
        expectOrdered(timings)
        #expect(try #require(timings.dnsLookup).duration >= resolver.delay, "\(timings)")
    }

    @Test("A kept-alive connection has no lookup, connect or handshake, and says it was reused")
    func reusedConnection() async throws {
        let server = try makeServer { _ in MockResponse().withBody("hello") }
        defer { server.shutdown() }
        let client = makeClient()

        let first = try #require(try await client.send(get(server)).timings)
        let second = try #require(try await client.send(get(server)).timings)

        // An IP literal needs no lookup.
        #expect(first.reusedConnection == false)
        #expect(first.dnsLookup == nil)
        #expect(first.connect != nil)
        #expect(second.reusedConnection == true)
        #expect(second.dnsLookup == nil && second.connect == nil && second.tlsHandshake == nil, "\(second)")
        #expect(second.phases.map(\.name) == ["send", "wait", "receive"], "\(second)")
        expectOrdered(second)
    }

    @Test("An answer from the DNS cache shows as a lookup shorter than the resolver's, without asking it again")
    func cachedLookup() async throws {
        let server = try makeServer { _ in MockResponse().withBody("hello").closingConnection() }
        defer { server.shutdown() }
        let resolver = DelayedLoopbackResolver(delay: TestTimeScale.scaled(.milliseconds(200)))
        let client = makeClient { $0.nameResolver = resolver }
        let port = try #require(server.baseURL.port)
        let request = HTTPRequest(method: .get, baseEndpoint: "http://timings.test:\(port)", path: "/")

        let first = try #require(try await client.send(request).timings)
        let second = try #require(try await client.send(request).timings)

        #expect(resolver.calls.value == 1)
        #expect(try #require(first.dnsLookup).duration >= resolver.delay)
        #expect(second.reusedConnection == false)
        #expect(try #require(second.dnsLookup).duration < resolver.delay, "\(second)")
    }

    @Test("A server slow to send the head shows in the time to first byte, a slow body in the body's time")
    func slowHeadAndBody() async throws {
        let headDelay = Duration.milliseconds(300)
        let bodyDelay = Duration.milliseconds(200)
        let server = try makeServer { _ in
            MockResponse().withHeadersDelay(headDelay).streaming([
                .init(Data("a".utf8)), .init(Data("b".utf8), after: bodyDelay),
            ])
        }
        defer { server.shutdown() }

        let response = try await makeClient().send(get(server))

        #expect(response.body == Data("ab".utf8))
        let timings = try #require(response.timings)
        expectOrdered(timings)
        let timeToFirstByte = try #require(timings.timeToFirstByte)
        let bodyTime = try #require(timings.bodyReceived).duration
        #expect(timeToFirstByte >= headDelay, "\(timings)")
        // The body's time starts when the head arrives, which a loaded machine may read a little after the server
        // wrote it (and started the body's delay): the two delays are in the sum, and most of the second is in the
        // body's time.
        #expect(timeToFirstByte + bodyTime >= headDelay + bodyDelay, "\(timings)")
        #expect(bodyTime >= bodyDelay / 2, "\(timings)")
        // Sending a small request on loopback takes nowhere near the head's delay (scaled for sanitizer runs).
        #expect(try #require(timings.requestSent).duration < TestTimeScale.scaled(headDelay), "\(timings)")
    }

    @Test("A streamed response is handed over at its head: its timings end with the wait")
    func streamedResponse() async throws {
        let server = try makeServer { _ in MockResponse().withBody("hello") }
        defer { server.shutdown() }

        let response = try await makeClient().send(get(server).withResponseDestination(.stream))

        let timings = try #require(response.timings)
        #expect(timings.waiting != nil)
        #expect(timings.bodyReceived == nil)
        for try await _ in try #require(response.bodyStream) {}
    }

    @Test("An uploaded body is in the send phase, which ends before the wait")
    func upload() async throws {
        let server = try makeServer { _ in MockResponse().withBody("done") }
        defer { server.shutdown() }
        let body = Data(repeating: 7, count: 512 * 1024)
        let request = HTTPRequest(
            method: .post, baseEndpoint: server.baseURL.absoluteString, path: "/upload", body: .data(body))

        let timings = try #require(try await makeClient().send(request).timings)

        #expect(try await server.takeRequest().body.count == body.count)
        let sent = try #require(timings.requestSent)
        #expect(try #require(timings.waiting).start >= sent.end)
        expectOrdered(timings)
    }
}
