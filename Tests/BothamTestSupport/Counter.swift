import BothamNetworking

/// A thread-safe count of calls (callbacks such as `onDemand` and `onCancel`, interceptor invocations), shared by the
/// test targets; not part of any product.
public final class Counter: Sendable {
    private let storage = Lock(0)

    /// A count of zero.
    public init() {}

    /// Adds one.
    public func increment() {
        storage.withLock { $0 += 1 }
    }

    /// The count so far.
    public var value: Int {
        storage.withLock { $0 }
    }
}
