import BothamNetworking

/// An ordered, thread-safe record of what a test saw (log lines, metrics, progress reports, events, waits), appended
/// to from callbacks, interceptors and concurrent tasks and read back as a snapshot for assertions. The one recorder
/// the test targets share; not part of any product.
public final class Recorder<Element: Sendable>: Sendable {
    private let storage = Lock<[Element]>([])

    /// An empty record.
    public init() {}

    /// Appends `element`.
    public func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything appended so far, in order.
    public var values: [Element] {
        storage.withLock { $0 }
    }

    /// The last element appended, or `nil`.
    public var last: Element? {
        storage.withLock { $0.last }
    }

    /// How many elements were appended.
    public var count: Int {
        storage.withLock { $0.count }
    }
}
