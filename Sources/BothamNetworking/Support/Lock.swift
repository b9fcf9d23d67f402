#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small mutual-exclusion lock that guards a value.
///
/// The project's own lock type: a pthread mutex and the value it guards in one heap object (one allocation per lock,
/// which matters for the locks made per call and per transfer). It is used instead of `Synchronization.Mutex`
/// because ThreadSanitizer reports false races inside `Mutex.withLock` on Linux, and the test suite must stay
/// TSan-clean. Copies of a `Lock` share the one object.
///
/// `@unchecked Sendable` is sound here: the value is only read or written inside `withLock`, which holds the mutex
/// for the whole closure, so no two threads ever touch it at once; the mutex lives in the object's tail allocation,
/// initialised once and never moved (as POSIX requires).
package struct Lock<Value>: @unchecked Sendable {
    private final class Buffer: ManagedBuffer<Value, pthread_mutex_t> {
        // The header (the value) is destroyed by `ManagedBuffer` itself; the mutex, an element, is ours to destroy.
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                _ = mutex.deinitialize(count: 1)
            }
        }
    }

    private let buffer: Buffer

    /// Creates a lock guarding `initialValue`.
    package init(_ initialValue: Value) {
        // `create` makes an instance of the class it is called on.
        buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in initialValue }, to: Buffer.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with exclusive access to the guarded value.
    @discardableResult
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try buffer.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
