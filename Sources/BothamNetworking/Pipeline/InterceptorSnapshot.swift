/// The interceptors of one kind that a call runs: the client's list, then the global one, as one collection.
///
/// Both are snapshots (``InterceptorList/snapshot``, copy-on-write arrays), and the two are viewed side by side rather
/// than joined, so taking a call's snapshot allocates nothing.
struct InterceptorSnapshot<Element: Sendable>: RandomAccessCollection, Sendable {
    /// The client's interceptors, which run first.
    let local: [Element]
    /// The global interceptors, which run after the client's.
    let global: [Element]

    var startIndex: Int { 0 }
    var endIndex: Int { local.count + global.count }

    subscript(position: Int) -> Element {
        position < local.count ? local[position] : global[position - local.count]
    }
}

extension InterceptorSnapshot {
    /// The snapshot of a client's `local` list followed by the `global` one, taken now.
    init(_ local: InterceptorList<Element>, then global: InterceptorList<Element>) {
        self.init(local: local.snapshot, global: global.snapshot)
    }
}
