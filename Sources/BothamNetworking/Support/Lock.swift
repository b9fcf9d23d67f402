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
    private let buffer: MutexBuffer<Value>

    /// Creates a lock guarding `initialValue`.
    package init(_ initialValue: Value) {
        buffer = MutexBuffer.make(initialValue, mutexes: 1)
    }

    /// Runs `body` with exclusive access to the guarded value.
    @discardableResult
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try buffer.withLocked(mutex: 0) { header in try body(&header.pointee.value) }
    }
}

/// A header and the pthread mutexes that guard it, in one heap object: the mutexes live in its tail allocation,
/// initialised once and never moved (as POSIX requires). ``Lock`` has one; a call's storage has two, one per part of
/// its header.
final class MutexBuffer<Header>: ManagedBuffer<MutexBufferHeader<Header>, pthread_mutex_t> {
    /// A buffer holding `header` and `mutexes` unlocked mutexes.
    static func make(_ header: Header, mutexes: Int) -> MutexBuffer {
        // `create` makes an instance of the class it is called on.
        let buffer = unsafeDowncast(
            create(minimumCapacity: mutexes) { _ in MutexBufferHeader(mutexes: mutexes, value: header) },
            to: MutexBuffer.self)
        buffer.withUnsafeMutablePointerToElements { first in
            for index in 0..<mutexes {
                (first + index).initialize(to: pthread_mutex_t())
                _ = pthread_mutex_init(first + index, nil)
            }
        }
        return buffer
    }

    // The header is destroyed by `ManagedBuffer` itself; the mutexes, its elements, are ours to destroy.
    deinit {
        let count = header.mutexes
        withUnsafeMutablePointerToElements { first in
            for index in 0..<count { pthread_mutex_destroy(first + index) }
            _ = first.deinitialize(count: count)
        }
    }

    /// Runs `body` while holding mutex number `mutex`; `body` reaches, through the pointer, only the part of
    /// `value` that mutex guards.
    func withLocked<T>(
        mutex: Int, _ body: (UnsafeMutablePointer<MutexBufferHeader<Header>>) throws -> T
    ) rethrows -> T {
        try withUnsafeMutablePointers { header, first in
            pthread_mutex_lock(first + mutex)
            defer { pthread_mutex_unlock(first + mutex) }
            return try body(header)
        }
    }
}

/// What a ``MutexBuffer`` keeps before its mutexes.
struct MutexBufferHeader<Value> {
    /// How many mutexes follow.
    let mutexes: Int
    /// What they guard.
    var value: Value
}
