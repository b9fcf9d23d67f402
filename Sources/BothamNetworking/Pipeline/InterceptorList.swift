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

    private struct Storage {
        var entries: [(id: UInt64, element: Element)] = []
        var nextID: UInt64 = 0
    }

    private let storage = Lock(Storage())

    /// Creates an empty list.
    package init() {}

    /// Appends an interceptor; it runs after the ones already in the list.
    @discardableResult
    public func append(_ element: Element) -> Registration {
        storage.withLock { storage in
            storage.nextID &+= 1
            storage.entries.append((id: storage.nextID, element: element))
            return Registration(id: storage.nextID)
        }
    }

    /// Appends interceptors in order.
    public func append(contentsOf elements: [Element]) {
        for element in elements { append(element) }
    }

    /// Removes the interceptor appended with `registration` (nothing if it is already gone).
    public func remove(_ registration: Registration) {
        storage.withLock { $0.entries.removeAll { $0.id == registration.id } }
    }

    /// Removes every interceptor.
    public func removeAll() {
        storage.withLock { $0.entries.removeAll() }
    }

    /// The interceptors now in the list, in order.
    public var snapshot: [Element] {
        storage.withLock { $0.entries.map(\.element) }
    }

    /// How many interceptors the list holds.
    public var count: Int {
        storage.withLock { $0.entries.count }
    }

    /// Whether the list is empty.
    public var isEmpty: Bool { count == 0 }
}
