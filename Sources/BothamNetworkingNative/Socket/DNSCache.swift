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
/// Safe from any thread: its state is behind a `Lock`; lookups run on dispatch threads, never on the loop.
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

    /// Who waits for a lookup in progress.
    typealias Waiter = @Sendable (Answer) -> Void

    private enum Entry {
        case pending([Waiter])
        case answered(Answer, expires: UInt64)
    }

    private let resolver: any NameResolving
    private let settings: Settings
    private let now: @Sendable () -> UInt64
    private let entries = Lock<[Key: Entry]>([:])

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
        return entries.withLock { entries -> Answer? in
            guard case .answered(let answer, let expires) = entries[key] else { return nil }
            if expires > time { return answer }
            entries[key] = nil
            return nil
        }
    }

    /// Calls `completion` (on a resolver thread, or at once for a cached answer) with the answer for `host` and
    /// `port`: cached, shared with a lookup in progress, or looked up now.
    func resolve(host: String, port: Int, completion: @escaping Waiter) {
        if settings.ttl == 0 {
            Self.lookUp(resolver, host: host, port: port, completion: completion)
            return
        }
        let key = Key(host: host, port: port)
        let time = now()
        enum Step {
            case answer(Answer)
            case wait
            case lookUp
        }
        let step = entries.withLock { entries -> Step in
            switch entries[key] {
            case .answered(let answer, let expires) where expires > time:
                return .answer(answer)
            case .pending(let waiters):
                entries[key] = .pending(waiters + [completion])
                return .wait
            default:
                entries[key] = .pending([completion])
                return .lookUp
            }
        }
        switch step {
        case .answer(let answer): completion(answer)
        case .wait: break
        case .lookUp:
            Self.lookUp(resolver, host: host, port: port) { [self] answer in store(answer, for: key) }
        }
    }

    /// The answer for `host` and `port`, awaited.
    func resolve(host: String, port: Int) async -> Answer {
        await withCheckedContinuation { continuation in
            resolve(host: host, port: port) { continuation.resume(returning: $0) }
        }
    }

    /// Drops the answer for `host` and `port` (every address failed to connect: the next connection asks again).
    func forget(host: String, port: Int) {
        let key = Key(host: host, port: port)
        entries.withLock { entries in
            if case .answered = entries[key] { entries[key] = nil }
        }
    }

    /// How many names are cached or being looked up (for tests).
    var count: Int { entries.withLock { $0.count } }

    /// Keeps `answer` for its lifetime and hands it to every waiter.
    private func store(_ answer: Answer, for key: Key) {
        let lifetime: UInt64
        switch answer {
        case .success: lifetime = settings.ttl
        case .failure: lifetime = settings.failureTTL
        }
        let time = now()
        let waiters = entries.withLock { entries -> [Waiter] in
            guard case .pending(let waiters) = entries[key] else { return [] }
            if lifetime > 0 {
                entries[key] = .answered(answer, expires: time &+ lifetime)
                Self.trim(&entries, to: max(1, settings.maxEntries), now: time)
            } else {
                entries[key] = nil
            }
            return waiters
        }
        for waiter in waiters { waiter(answer) }
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

    /// One call to the resolver, its error made a ``NativeTransportError``. The system resolver is called with a
    /// callback on its own queue; another one runs on ``ResolverExecutor`` (dispatch threads, never Swift's
    /// cooperative pool, which a busy process may keep from it for seconds).
    private static func lookUp(
        _ resolver: any NameResolving, host: String, port: Int, completion: @escaping Waiter
    ) {
        if resolver is SystemNameResolver {
            NameResolver.resolve(host: host, port: port) { result in
                completion(result.flatMap { addresses in checked(addresses.compactMap(NetworkAddress.init), host) })
            }
            return
        }
        let work: @Sendable () async -> Void = {
            do {
                completion(checked(try await resolver.resolve(host: host, port: port), host))
            } catch let error as NativeTransportError {
                completion(.failure(error))
            } catch {
                let reason = "cannot resolve \(host): \(error)"
                completion(.failure(NativeTransportError(code: .nameResolution, reason: reason)))
            }
        }
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            Task(executorPreference: ResolverExecutor.shared) { await work() }
        } else {
            Task { await work() }
        }
    }

    /// `addresses`, or a failure when there are none.
    private static func checked(_ addresses: [NetworkAddress], _ host: String) -> Answer {
        if addresses.isEmpty {
            return .failure(NativeTransportError(code: .nameResolution, reason: "no address for \(host)"))
        }
        return .success(addresses)
    }
}
