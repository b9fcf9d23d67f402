import BothamNetworking

/// A client's cache of name lookups in front of its ``NameResolving`` resolver.
///
/// - An answer is reused for ``Settings/ttl`` (`getaddrinfo` reports no time to live, so the client chooses one);
///   a failure for ``Settings/failureTTL`` only, so a name that comes back is retried soon.
/// - At most ``Settings/maxEntries`` names are kept: a full cache first drops expired entries, then the one that
///   expires first.
/// - Concurrent lookups of one name share one call to the resolver.
/// - A waiter that goes away (its connection was closed: the call was cancelled or timed out) gives up its place
///   with ``cancel(_:)``. When the last waiter of a lookup leaves, the lookup is forgotten and a custom resolver's
///   task is cancelled, so a resolver that never answers holds neither the connections that waited for it nor the
///   name: the next connection asks again.
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

    /// A name and port; `serial` is 0 for a shared lookup, or unique for one that is not shared (no cache).
    fileprivate struct Key: Hashable {
        let host: String
        let port: Int
        var serial: UInt64 = 0
    }

    /// A waiter's place in a lookup in progress, to give it up with ``DNSCache/cancel(_:)``.
    struct Ticket: Sendable {
        fileprivate let key: Key
        fileprivate let waiter: UInt64
    }

    /// Who waits for a lookup in progress.
    typealias Waiter = @Sendable (Answer) -> Void

    /// A lookup in progress: its id, its waiters by ticket number, and the task running a custom resolver.
    private struct Lookup {
        let id: UInt64
        var waiters: [(id: UInt64, waiter: Waiter)] = []
        var task: Task<Void, Never>?
    }

    private enum Entry {
        case pending(Lookup)
        case answered(Answer, expires: UInt64)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var serial: UInt64 = 0

        mutating func nextSerial() -> UInt64 {
            serial &+= 1
            return serial
        }
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

    /// Calls `completion` (on a resolver thread, or at once for a cached answer) with the answer for `host` and
    /// `port`: cached, shared with a lookup in progress, or looked up now. Returns the waiter's ticket, to give up
    /// waiting with ``cancel(_:)``, or `nil` when `completion` has already been called.
    @discardableResult
    func resolve(host: String, port: Int, completion: @escaping Waiter) -> Ticket? {
        let shared = settings.ttl > 0
        let time = now()
        enum Step {
            case answer(Answer)
            case wait(Ticket)
            case lookUp(Ticket, lookup: UInt64)
        }
        let step = state.withLock { state -> Step in
            var key = Key(host: host, port: port)
            if !shared { key.serial = state.nextSerial() }
            let ticket = Ticket(key: key, waiter: state.nextSerial())
            switch state.entries[key] {
            case .answered(let answer, let expires) where expires > time:
                return .answer(answer)
            case .pending(var lookup):
                lookup.waiters.append((id: ticket.waiter, waiter: completion))
                state.entries[key] = .pending(lookup)
                return .wait(ticket)
            default:
                let lookup = Lookup(id: state.nextSerial(), waiters: [(id: ticket.waiter, waiter: completion)])
                state.entries[key] = .pending(lookup)
                return .lookUp(ticket, lookup: lookup.id)
            }
        }
        switch step {
        case .answer(let answer):
            completion(answer)
            return nil
        case .wait(let ticket):
            return ticket
        case .lookUp(let ticket, let lookup):
            let key = ticket.key
            let task = Self.lookUp(resolver, host: host, port: port) { [self] answer in
                store(answer, for: key, lookup: lookup)
            }
            if let task { attach(task, to: key, lookup: lookup) }
            return ticket
        }
    }

    /// The answer for `host` and `port`, awaited.
    func resolve(host: String, port: Int) async -> Answer {
        await withCheckedContinuation { continuation in
            resolve(host: host, port: port) { continuation.resume(returning: $0) }
        }
    }

    /// Gives up the place `ticket` holds: its completion is never called. When it was the lookup's last waiter, the
    /// lookup is forgotten (the next connection asks the resolver again) and a custom resolver's task is cancelled.
    /// Idempotent; a ticket whose answer came already is ignored.
    func cancel(_ ticket: Ticket) {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard case .pending(var lookup) = state.entries[ticket.key] else { return nil }
            lookup.waiters.removeAll { $0.id == ticket.waiter }
            guard lookup.waiters.isEmpty else {
                state.entries[ticket.key] = .pending(lookup)
                return nil
            }
            state.entries[ticket.key] = nil
            return lookup.task
        }
        task?.cancel()
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

    /// Records the task running lookup `lookup`, or cancels it when every waiter left before it was made.
    private func attach(_ task: Task<Void, Never>, to key: Key, lookup id: UInt64) {
        let attached = state.withLock { state -> Bool in
            guard case .pending(var lookup) = state.entries[key], lookup.id == id else { return false }
            lookup.task = task
            state.entries[key] = .pending(lookup)
            return true
        }
        if !attached { task.cancel() }
    }

    /// Keeps `answer` of lookup `lookup` for its lifetime and hands it to every waiter still waiting. An answer for a
    /// lookup that was given up is dropped.
    private func store(_ answer: Answer, for key: Key, lookup id: UInt64) {
        let lifetime: UInt64
        switch answer {
        case .success: lifetime = key.serial == 0 ? settings.ttl : 0
        case .failure: lifetime = key.serial == 0 ? settings.failureTTL : 0
        }
        let time = now()
        let waiters = state.withLock { state -> [Waiter] in
            guard case .pending(let lookup) = state.entries[key], lookup.id == id else { return [] }
            if lifetime > 0 {
                state.entries[key] = .answered(answer, expires: time &+ lifetime)
                Self.trim(&state.entries, to: max(1, settings.maxEntries), now: time)
            } else {
                state.entries[key] = nil
            }
            return lookup.waiters.map(\.waiter)
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
    /// callback on its own queue (`getaddrinfo` cannot be stopped: a cancelled lookup runs to its end and its answer
    /// is dropped); another one runs in a task on ``ResolverExecutor`` (dispatch threads, never Swift's cooperative
    /// pool, which a busy process may keep from it for seconds), returned so that it can be cancelled.
    private static func lookUp(
        _ resolver: any NameResolving, host: String, port: Int, completion: @escaping Waiter
    ) -> Task<Void, Never>? {
        if resolver is SystemNameResolver {
            NameResolver.resolve(host: host, port: port) { result in
                completion(result.flatMap { addresses in checked(addresses.compactMap(NetworkAddress.init), host) })
            }
            return nil
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
            return Task(executorPreference: ResolverExecutor.shared) { await work() }
        } else {
            return Task.detached { await work() }
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
