#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a mutex, with a condition variable on which threads wait until the value lets them go on:
/// the HTTP/2 connection's flow-control windows and stream states, shared by its reader and its responders.
///
/// `@unchecked Sendable` is sound here: the value is only read or written while the mutex is held (inside
/// ``withLock(_:)``, ``update(_:)`` and the predicate and body of ``wait(until:then:)``, which `pthread_cond_wait`
/// re-enters with the mutex held), so no two threads touch it at once; the mutex and the condition are allocated
/// once, never moved, and destroyed in `deinit`, when no thread can be using them.
final class ConditionLock<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A lock guarding `value`.
    init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; waiting threads are not woken.
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiting thread to look at it again.
    @discardableResult
    func update<T>(_ body: (inout Value) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Waits until `isReady` holds for the value (checked now and after every ``update(_:)``), then runs `body`
    /// with the lock still held.
    func wait<T>(until isReady: (Value) -> Bool, then body: (inout Value) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(value) {
            pthread_cond_wait(condition, mutex)
        }
        return body(&value)
    }
}
