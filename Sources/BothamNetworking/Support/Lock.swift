#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small mutual-exclusion lock that guards a value.
///
/// The project's own lock type: a heap-allocated pthread mutex around a stored value. It is used instead of
/// `Synchronization.Mutex` because ThreadSanitizer reports false races inside `Mutex.withLock` on Linux, and the
/// test suite must stay TSan-clean.
///
/// `@unchecked Sendable` is sound here: `value` is only read or written inside `withLock`, which holds the
/// mutex for the whole closure, so no two threads ever touch it at once; the mutex itself is allocated once and
/// never moved (it lives behind an `UnsafeMutablePointer`, as POSIX requires).
package final class Lock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// Creates a lock guarding `initialValue`.
    package init(_ initialValue: Value) {
        value = initialValue
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the guarded value.
    @discardableResult
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
