/// Gives other tasks a chance to run until `condition` holds or `limit` has passed (no fixed sleep: it returns as
/// soon as the condition holds). Returns whether it holds; a cancelled task (a suite's time limit) stops waiting.
///
/// It yields a few times first (most conditions hold within a few turns of the scheduler), then checks once a
/// millisecond: a waiting test must not keep one of the few cooperative threads (two on this machine kind) busy
/// while the work it waits for needs that thread. The default bound is generous because it is only reached when a
/// test fails, or when a loaded machine starved every thread for a while.
public func eventually(within limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    var checks = 0
    while !condition() {
        if ContinuousClock.now >= deadline || Task.isCancelled { return false }
        checks += 1
        if checks < 16 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return true
}
