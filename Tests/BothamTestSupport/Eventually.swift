/// Gives other tasks a chance to run until `condition` holds or `limit` has passed (no fixed sleep: it returns as
/// soon as the condition holds). Returns whether it holds.
public func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        await Task.yield()
    }
    return true
}
