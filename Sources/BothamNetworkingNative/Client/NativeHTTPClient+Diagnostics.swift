extension NativeHTTPClient {
    /// How many connections this client's pools have opened so far, over every loop (for tests and diagnostics).
    func openedConnectionCount() async -> Int {
        guard let shards else { return 0 }
        var total = 0
        for shard in shards.shards {
            total += await withCheckedContinuation { done in
                shard.loop.execute { done.resume(returning: shard.pool.openedCount) }
            }
        }
        return total
    }
}
