/// A thread-safe, ordered list of interceptors.
///
/// Used for a client's local lists and for the global ones, exactly like Botham's arrays:
///
/// ```swift
/// apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())
/// BothamAPIClient.globalNetworkInterceptors.append(LoggingInterceptor())
/// ```
///
/// Every call takes one snapshot of each list when it starts; changing a list never affects calls already in flight.
public final class InterceptorList<Element: Sendable>: Sendable {
    /// Identifies one appended interceptor so exactly that one can be removed.
    public struct Registration: Sendable, Hashable {
        let id: UInt64
    }

    /// The elements and their ids, side by side: ``snapshot`` hands out `elements` itself (a copy-on-write array,
    /// so taking one per call allocates nothing).
    private struct Storage {
        var elements: [Element] = []
        var ids: [UInt64] = []
        var nextID: UInt64 = 0
    }

    private let storage = Lock(Storage())
    /// Told after every change, once the list's lock is released: a client's own list drops the client's snapshot,
    /// a global list counts the change (``InterceptorListChanges``).
    private let onChange: @Sendable () -> Void

    /// Creates an empty list; `onChange` is told after every change (by default the change is counted, as a global
    /// list's are).
    package init(onChange: @escaping @Sendable () -> Void = InterceptorListChanges.record) {
        self.onChange = onChange
    }

    /// Appends an interceptor; it runs after the ones already in the list.
    @discardableResult
    public func append(_ element: Element) -> Registration {
        let registration = storage.withLock { storage in
            storage.nextID &+= 1
            storage.elements.append(element)
            storage.ids.append(storage.nextID)
            return Registration(id: storage.nextID)
        }
        onChange()
        return registration
    }

    /// Appends interceptors in order.
    package func append(contentsOf elements: [Element]) {
        for element in elements { append(element) }
    }

    /// Removes the interceptor appended with `registration` (nothing if it is already gone). Calls in flight keep
    /// it; a client releases a removed global interceptor when it next starts a call.
    public func remove(_ registration: Registration) {
        let removed = storage.withLock { storage -> Element? in
            guard let index = storage.ids.firstIndex(of: registration.id) else { return nil }
            storage.ids.remove(at: index)
            return storage.elements.remove(at: index)
        }
        guard removed != nil else { return }
        onChange()
    }

    /// Removes every interceptor.
    package func removeAll() {
        storage.withLock { storage in
            storage.elements.removeAll()
            storage.ids.removeAll()
        }
        onChange()
    }

    /// The interceptors now in the list, in order.
    package var snapshot: [Element] {
        storage.withLock { $0.elements }
    }

    /// How many interceptors the list holds.
    package var count: Int {
        storage.withLock { $0.elements.count }
    }

    /// Whether the list is empty.
    package var isEmpty: Bool { count == 0 }
}

/// Counts the changes made to the global ``InterceptorList``s, so that a client can keep the interceptor snapshots
/// of its last call and take new ones only after a global list changed (one lock per call instead of one per list;
/// a client's own lists drop its snapshot themselves). A list counts its change after making it, so a count read
/// before a snapshot is taken is never newer than the lists the snapshot saw.
enum InterceptorListChanges {
    private static let count = Lock<UInt64>(0)

    /// How many changes the lists have had so far.
    static var current: UInt64 { count.withLock { $0 } }

    /// Records one change.
    static func record() {
        count.withLock { $0 &+= 1 }
    }
}
