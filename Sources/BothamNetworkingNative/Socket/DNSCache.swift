import BothamNetworking

/// A client's cache of name lookups in front of its ``NameResolving`` resolver.
///
/// - An answer is reused for ``Settings/ttl`` (`getaddrinfo` reports no time to live, so the client chooses one);
///   a failure for ``Settings/failureTTL`` only, so a name that comes back is retried soon.
/// - At most ``Settings/maxEntries`` names are kept: a full cache first drops expired entries, then the one that
///   expires first.
/// - Concurrent lookups of one name share one call to the resolver.
/// - IP literals never reach it (the connection parses them itself).
///
/// Safe from any thread: its state is behind a `Lock`; lookups run in tasks of their own, never on the loop.
final class DNSCache: Sendable {
    /// How long answers are kept, and how many.
    struct Settings: Sendable {
        /// Nanoseconds an answer is reused; 0 turns the cache off (every connection asks the resolver).
        var ttl: UInt64
        /// Nanoseconds a failure is reused; 0 caches no failures.
        var failureTTL: UInt64
        /// The most names kept.
        var maxEntries: Int
    }

    /// A lookup's outcome.
    typealias Answer = Result<[NetworkAddress], NativeTransportError>

    private struct Key: Hashable {
        let host: String
        let port: Int
    }

    private enum Entry {
        case pending(Task<Answer, Never>, generation: UInt64)
        case answered(Answer, expires: UInt64)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var generation: UInt64 = 0
    }

    private let resolver: any NameResolving
    private let settings: Settings
    private let now: @Sendable () -> UInt64
    private let state = Lock(State())

    /// A cache in front of `resolver`; `now` is the clock in monotonic nanoseconds (tests inject their own).
    init(
        resolver: any NameResolving,
        settings: Settings,
        now: @escaping @Sendable () -> UInt64 = { MonotonicClock.now() }
    ) {
        self.resolver = resolver
        self.settings = settings
        self.now = now
    }

    /// The cached, unexpired answer for `host` and `port`, without waiting; `nil` when a lookup is needed.
    func cached(host: String, port: Int) -> Answer? {
        let key = Key(host: host, port: port)
        let time = now()
        return state.withLock { state -> Answer? in
            guard case .answered(let answer, let expires) = state.entries[key] else { return nil }
            if expires > time { return answer }
            state.entries[key] = nil
            return nil
        }
    }

    /// The answer for `host` and `port`: cached, shared with a lookup in progress, or looked up now.
    func resolve(host: String, port: Int) async -> Answer {
        if settings.ttl == 0 { return await Self.lookUp(resolver, host: host, port: port) }
        let key = Key(host: host, port: port)
        let time = now()
        let task = state.withLock { state -> Task<Answer, Never>? in
            switch state.entries[key] {
            case .answered(_, let expires) where expires > time:
                return nil
            case .pending(let task, _):
                return task
            default:
                state.generation &+= 1
                let generation = state.generation
                let resolver = self.resolver
                let task = Task<Answer, Never> { [weak self] in
                    let answer = await Self.lookUp(resolver, host: host, port: port)
                    self?.store(answer, for: key, generation: generation)
                    return answer
                }
                state.entries[key] = .pending(task, generation: generation)
                return task
            }
        }
        if let task { return await task.value }
        if let answer = cached(host: host, port: port) { return answer }
        return await resolve(host: host, port: port)  // it expired in between
    }

    /// Drops the answer for `host` and `port` (every address failed to connect: the next connection asks again).
    func forget(host: String, port: Int) {
        let key = Key(host: host, port: port)
        state.withLock { state in
            if case .answered = state.entries[key] { state.entries[key] = nil }
        }
    }

    /// How many names are cached or being looked up (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    private func store(_ answer: Answer, for key: Key, generation: UInt64) {
        let lifetime: UInt64
        switch answer {
        case .success: lifetime = settings.ttl
        case .failure: lifetime = settings.failureTTL
        }
        let time = now()
        state.withLock { state in
            guard case .pending(_, let current) = state.entries[key], current == generation else { return }
            guard lifetime > 0 else {
                state.entries[key] = nil
                return
            }
            state.entries[key] = .answered(answer, expires: time &+ lifetime)
            Self.trim(&state.entries, to: max(1, settings.maxEntries), now: time)
        }
    }

    /// Keeps at most `limit` entries: expired answers go first, then the answers that expire soonest. Lookups in
    /// progress stay (their callers are waiting on them).
    private static func trim(_ entries: inout [Key: Entry], to limit: Int, now: UInt64) {
        guard entries.count > limit else { return }
        for (key, entry) in entries {
            if case .answered(_, let expires) = entry, expires <= now { entries[key] = nil }
        }
        guard entries.count > limit else { return }
        let answered = entries.compactMap { key, entry -> (Key, UInt64)? in
            if case .answered(_, let expires) = entry { return (key, expires) }
            return nil
        }
        for (key, _) in answered.sorted(by: { $0.1 < $1.1 }).prefix(entries.count - limit) {
            entries[key] = nil
        }
    }

    /// One call to the resolver, its error made a ``NativeTransportError``.
    private static func lookUp(_ resolver: any NameResolving, host: String, port: Int) async -> Answer {
        do {
            let addresses = try await resolver.resolve(host: host, port: port)
            if addresses.isEmpty {
                return .failure(NativeTransportError(code: .nameResolution, reason: "no address for \(host)"))
            }
            return .success(addresses)
        } catch let error as NativeTransportError {
            return .failure(error)
        } catch {
            return .failure(NativeTransportError(code: .nameResolution, reason: "cannot resolve \(host): \(error)"))
        }
    }
}
