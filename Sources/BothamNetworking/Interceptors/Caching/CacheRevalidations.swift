/// The background revalidations of one ``CacheInterceptor`` (`stale-while-revalidate`): at most one per entry,
/// kept so that they can be awaited or cancelled.
final class CacheRevalidations: Sendable {
    private let tasks = Lock<[CacheKey: Task<Void, Never>]>([:])

    /// Starts `work` for `key` unless a revalidation of `key` is already running; returns whether it started.
    @discardableResult
    func start(_ key: CacheKey, _ work: @escaping @Sendable () async -> Void) -> Bool {
        tasks.withLock { tasks in
            guard tasks[key] == nil else { return false }
            tasks[key] = Task { [weak self] in
                await work()
                self?.finish(key)
            }
            return true
        }
    }

    private func finish(_ key: CacheKey) {
        tasks.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// How many are running.
    var count: Int { tasks.withLock { $0.count } }

    /// Waits for every revalidation running now.
    func wait() async {
        for task in tasks.withLock({ Array($0.values) }) { await task.value }
    }

    /// Cancels every revalidation running now.
    func cancelAll() {
        for task in tasks.withLock({ Array($0.values) }) { task.cancel() }
    }
}
