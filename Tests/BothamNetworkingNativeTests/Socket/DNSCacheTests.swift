import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// A clock the test moves by hand, in nanoseconds.
private final class ManualClock: Sendable {
    private let time = Lock<UInt64>(1_000)

    var now: UInt64 { time.withLock { $0 } }

    func advance(seconds: Double) {
        time.withLock { $0 += UInt64(seconds * 1e9) }
    }
}

/// A resolver that counts its calls and answers `127.0.0.<n>` for the n-th call, or fails while `failing` is set.
private final class CountingResolver: NameResolving {
    let calls = Counter()
    let failing = Lock(false)

    func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        calls.increment()
        if failing.withLock({ $0 }) { throw LoopbackSocketError(description: "no such name") }
        return [NetworkAddress(ip: "127.0.0.\(calls.value)", port: port)].compactMap { $0 }
    }
}

/// A resolver that waits at a gate the test opens, and says when a lookup has reached it.
private final class GatedResolver: NameResolving {
    let calls = Counter()
    let entered: AsyncStream<Void>
    private let enteredContinuation: AsyncStream<Void>.Continuation
    private let gate = Lock<[CheckedContinuation<Void, Never>]?>([])

    init() {
        (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
    }

    func resolve(host: String, port: Int) async throws -> [NetworkAddress] {
        calls.increment()
        await withCheckedContinuation { continuation in
            let waiting = gate.withLock { waiters -> Bool in
                guard waiters != nil else { return false }
                waiters?.append(continuation)
                return true
            }
            if !waiting { continuation.resume() }
            enteredContinuation.yield()
        }
        return [NetworkAddress(ip: "::1", port: port)].compactMap { $0 }
    }

    func open() {
        let waiters = gate.withLock { waiters -> [CheckedContinuation<Void, Never>] in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in waiters { waiter.resume() }
    }
}

@Suite("NativeHTTPClient's DNS cache", .timeLimit(.minutes(1)))
struct DNSCacheTests {
    private static let seconds: UInt64 = 1_000_000_000

    private func cache(
        _ resolver: any NameResolving, clock: ManualClock, ttl: UInt64 = 30 * seconds, failureTTL: UInt64 = seconds,
        maxEntries: Int = 256
    ) -> DNSCache {
        DNSCache(
            resolver: resolver,
            settings: DNSCache.Settings(ttl: ttl, failureTTL: failureTTL, maxEntries: maxEntries),
            now: { clock.now }
        )
    }

    @Test("An answer is reused until its time to live ends, then the resolver is asked again")
    func answersExpire() async throws {
        let resolver = CountingResolver()
        let clock = ManualClock()
        let cache = cache(resolver, clock: clock)

        let first = try await cache.resolve(host: "api.test", port: 443).get()
        clock.advance(seconds: 29.9)
        let second = try await cache.resolve(host: "api.test", port: 443).get()
        #expect(cache.cached(host: "api.test", port: 443) != nil)
        clock.advance(seconds: 0.2)
        #expect(cache.cached(host: "api.test", port: 443) == nil)
        let third = try await cache.resolve(host: "api.test", port: 443).get()

        #expect(first == second)
        #expect(third.map(\.ip) == ["127.0.0.2"])
        #expect(resolver.calls.value == 2)
    }

    @Test("A failure is remembered for the failure time to live only")
    func failuresExpireSoon() async {
        let resolver = CountingResolver()
        resolver.failing.withLock { $0 = true }
        let clock = ManualClock()
        let cache = cache(resolver, clock: clock)

        let first = await cache.resolve(host: "gone.test", port: 80)
        let second = await cache.resolve(host: "gone.test", port: 80)
        #expect(resolver.calls.value == 1)
        resolver.failing.withLock { $0 = false }
        clock.advance(seconds: 1.1)
        let third = await cache.resolve(host: "gone.test", port: 80)

        guard case .failure(let error) = first, case .failure = second, case .success = third else {
            Issue.record("expected two failures, then an answer: \(first), \(second), \(third)")
            return
        }
        #expect(error.code == .nameResolution)
        #expect(error.reason.contains("gone.test"))
        #expect(resolver.calls.value == 2)
    }

    @Test("With a failure time to live of zero, a failed name is asked again at once")
    func failuresNotCached() async {
        let resolver = CountingResolver()
        resolver.failing.withLock { $0 = true }
        let cache = cache(resolver, clock: ManualClock(), failureTTL: 0)

        _ = await cache.resolve(host: "gone.test", port: 80)
        _ = await cache.resolve(host: "gone.test", port: 80)

        #expect(resolver.calls.value == 2)
        #expect(cache.count == 0)
    }

    @Test("With a time to live of zero, every lookup asks the resolver")
    func cacheOff() async {
        let resolver = CountingResolver()
        let cache = cache(resolver, clock: ManualClock(), ttl: 0)

        _ = await cache.resolve(host: "api.test", port: 80)
        _ = await cache.resolve(host: "api.test", port: 80)

        #expect(resolver.calls.value == 2)
        #expect(cache.cached(host: "api.test", port: 80) == nil)
    }

    @Test("A full cache drops the name that expires first, and keeps at most its size")
    func bounded() async {
        let resolver = CountingResolver()
        let clock = ManualClock()
        let cache = cache(resolver, clock: clock, maxEntries: 3)

        for name in ["a.test", "b.test", "c.test", "d.test"] {
            _ = await cache.resolve(host: name, port: 80)
            clock.advance(seconds: 1)
        }

        #expect(cache.count == 3)
        #expect(cache.cached(host: "a.test", port: 80) == nil)
        for name in ["b.test", "c.test", "d.test"] { #expect(cache.cached(host: name, port: 80) != nil) }
    }

    @Test("Concurrent lookups of one name make one call to the resolver and get the same answer")
    func lookupsCoalesce() async throws {
        let resolver = GatedResolver()
        let cache = cache(resolver, clock: ManualClock())

        let answers = try await withThrowingTaskGroup(of: [NetworkAddress].self) { group in
            group.addTask { try await cache.resolve(host: "api.test", port: 80).get() }
            var entered = resolver.entered.makeAsyncIterator()
            _ = await entered.next()  // the first lookup is at the resolver, the gate closed
            for _ in 0..<4 { group.addTask { try await cache.resolve(host: "api.test", port: 80).get() } }
            resolver.open()
            var answers: [[NetworkAddress]] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }

        #expect(answers.count == 5)
        #expect(Set(answers).count == 1)
        #expect(resolver.calls.value == 1)
    }

    @Test("A forgotten name is looked up again")
    func forget() async {
        let resolver = CountingResolver()
        let cache = cache(resolver, clock: ManualClock())

        _ = await cache.resolve(host: "api.test", port: 80)
        cache.forget(host: "api.test", port: 80)
        _ = await cache.resolve(host: "api.test", port: 80)

        #expect(resolver.calls.value == 2)
    }

    @Test("NativeHTTPClient asks its resolver once for two connections to one name, and never for an IP literal")
    func clientUsesTheCache() async throws {
        let server = try makeServer { _ in MockResponse().withBody("ok").closingConnection() }
        defer { server.shutdown() }
        let address = try #require(NetworkAddress(ip: "127.0.0.1", port: server.port))
        let resolver = TableResolver(["api.test": [address]])
        let client = makeClient { $0.nameResolver = resolver }

        for _ in 0..<2 {
            let response = try await client.send(
                HTTPRequest(method: .get, baseEndpoint: "http://api.test:\(server.port)"))
            #expect(response.body == Data("ok".utf8))
        }
        _ = try await client.send(get(server))

        #expect(server.requestCount == 3)
        #expect(resolver.calls.value == 1)
    }

    @Test("With dnsCacheTTL zero, NativeHTTPClient asks its resolver for every new connection")
    func clientWithoutCache() async throws {
        let server = try makeServer { _ in MockResponse().withBody("ok").closingConnection() }
        defer { server.shutdown() }
        let address = try #require(NetworkAddress(ip: "127.0.0.1", port: server.port))
        let resolver = TableResolver(["api.test": [address]])
        let client = makeClient { configuration in
            configuration.nameResolver = resolver
            configuration.dnsCacheTTL = .zero
        }

        for _ in 0..<2 {
            _ = try await client.send(HTTPRequest(method: .get, baseEndpoint: "http://api.test:\(server.port)"))
        }

        #expect(resolver.calls.value == 2)
    }

    @Test("A name whose every address failed to connect is looked up again by the next connection")
    func failedNameIsForgotten() async throws {
        let refused = try BoundSocket(.ipv4)  // bound, not listening: a connect is refused
        let resolver = TableResolver(["api.test": [refused.address]])
        let client = makeClient { $0.nameResolver = resolver }
        let request = HTTPRequest(method: .get, baseEndpoint: "http://api.test:\(refused.address.port)")

        for _ in 0..<2 {
            let error = await failure(of: request, with: client)
            #expect(error.flatMap(failureKind) == .cannotConnect)
        }

        #expect(resolver.calls.value == 2)
    }

    @Test("A name the resolver cannot answer fails with cannotFindHost, carrying the resolver's reason")
    func resolverFailure() async {
        let client = makeClient { $0.nameResolver = TableResolver([:]) }

        let error = await failure(of: HTTPRequest(method: .get, baseEndpoint: "http://nowhere.test"), with: client)

        guard case .networkError(let networkFailure) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(networkFailure.kind == .cannotFindHost)
        let native = networkFailure.underlying as? NativeTransportError
        #expect(native?.code == .nameResolution)
        #expect(native?.reason.contains("nowhere.test is not in the table") == true)
    }
}
