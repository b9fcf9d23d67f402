/// The `Vary` names of the last response seen for each method and URL, for at most ``capacity`` of them: when a new
/// one would go over, the one remembered first is forgotten. A value guarded by the coalescer's lock.
struct VaryMemory {
    /// A method and a resolved URL.
    struct Target: Hashable, Sendable {
        let method: String
        let url: String
    }

    /// The most targets remembered.
    let capacity: Int
    private var names: [Target: VaryNames] = [:]
    /// The remembered targets, oldest first.
    private var order: [Target] = []

    init(capacity: Int) {
        self.capacity = Swift.max(0, capacity)
    }

    /// The names remembered for `target`, or `nil`.
    func names(for target: Target) -> VaryNames? {
        names[target]
    }

    /// How many targets are remembered.
    var count: Int { names.count }

    /// Remembers `vary` for `target` (`nil`: the last response had no `Vary`, so nothing is kept for it).
    mutating func remember(_ vary: VaryNames?, for target: Target) {
        guard let vary else {
            if names.removeValue(forKey: target) != nil { order.removeAll { $0 == target } }
            return
        }
        guard capacity > 0 else { return }
        if names.updateValue(vary, forKey: target) == nil {
            order.append(target)
            if order.count > capacity { names[order.removeFirst()] = nil }
        }
    }
}
