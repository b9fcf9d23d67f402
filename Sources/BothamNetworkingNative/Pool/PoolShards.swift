import BothamNetworking

/// A client's connection pool sharded across its event loops: one ``ConnectionPool`` per loop, each confined to its
/// loop's thread, and the choice of the shard a call runs on.
///
/// A call made on one of the loops (its task prefers that loop's executor) uses that loop's shard, so it never
/// changes threads, and touches nothing another loop touches (no lock, no shared counter). Any other call goes to the
/// least busy shard, counted in this client's calls from elsewhere in flight there (a streamed body counts until
/// it ends, since it holds its connection; calls to every host count), ties going to the first: concurrent calls spread over every loop,
/// and sequential ones stay on the first shard and keep reusing its kept-alive connection (round robin would open a
/// connection per loop for a caller that sends one call at a time, and would send a call to a loop that is already
/// busy with this client's calls).
///
/// The connection cap is the client's total, split across the shards (shard `i` gets `cap / n`, plus one for the
/// first `cap % n` shards), so the sockets to one host never exceed the configured cap; a client never uses more
/// loops than its cap, so every shard can open at least one connection.
final class PoolShards: Sendable {
    /// One loop and its pool.
    struct Shard: Sendable {
        let index: Int
        let loop: EventLoop
        let pool: ConnectionPool
    }

    /// The shards, in the order of their loops.
    let shards: [Shard]
    /// Exchanges in flight per shard; unused (never locked) with a single shard.
    private let busy: Lock<[Int]>

    /// One shard per loop of `loops`, at most `maxConnectionsPerHost` of them, sharing that cap; `nil` without
    /// loops.
    init?(loops: [EventLoop], maxConnectionsPerHost: Int, idleTimeout: UInt64, connectSettings: ConnectSettings) {
        guard !loops.isEmpty else { return nil }
        let cap = max(1, maxConnectionsPerHost)
        let used = Array(loops.prefix(cap))
        shards = used.enumerated().map { index, loop in
            Shard(
                index: index,
                loop: loop,
                pool: ConnectionPool(
                    loop: loop,
                    maxConnectionsPerHost: Self.share(of: cap, shard: index, shards: used.count),
                    idleTimeout: idleTimeout,
                    connectSettings: connectSettings
                )
            )
        }
        busy = Lock([Int](repeating: 0, count: used.count))
    }

    /// The part of `cap` shard `index` of `count` may open: the cap split as evenly as it goes, the first shards
    /// taking the remainder.
    static func share(of cap: Int, shard index: Int, shards count: Int) -> Int {
        cap / count + (index < cap % count ? 1 : 0)
    }

    /// The shard of the loop the calling thread runs, else the least busy one, then counted busy until
    /// ``leave(_:counted:)``: `counted` says which, for that call. A call on a loop touches no state shared with the
    /// other loops: no lock, no counter.
    func enter() -> (shard: Shard, counted: Bool) {
        guard shards.count > 1 else { return (shards[0], false) }
        if let current = shards.first(where: { $0.loop.isCurrent }) { return (current, false) }
        let shard = busy.withLock { busy -> Shard in
            let shard = shards[busy.indices.min { busy[$0] < busy[$1] } ?? 0]
            busy[shard.index] += 1
            return shard
        }
        return (shard, true)
    }

    /// The call that ``enter()`` gave `shard` is over; `counted` is what ``enter()`` said.
    func leave(_ shard: Shard, counted: Bool) {
        guard counted else { return }
        busy.withLock { $0[shard.index] -= 1 }
    }

    /// Closes every idle connection of every shard, each on its own loop.
    func shutdown() {
        for shard in shards {
            let pool = shard.pool
            shard.loop.execute { pool.shutdown() }
        }
    }
}
