#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one call's attempts share: the values of ``HTTPCallContext`` (``HTTPCallValueKey``) and the sends of its
/// ``SendBudget``.
struct HTTPCallState {
    /// The typed per-call values, by key type.
    var values: [ObjectIdentifier: any Sendable] = [:]
    /// Sends made to the transport so far (counted only for calls with onion interceptors).
    var sends = 0
    /// What the transport answered last (kept only for calls with onion interceptors), in a box of its own so that a
    /// call that never records one carries one word for it, not a whole response.
    var lastSend: SentOutcome?
}

/// One transport outcome, kept by ``SendBudget``.
final class SentOutcome: Sendable {
    let result: Result<HTTPResponse, APIClientError>

    init(_ result: Result<HTTPResponse, APIClientError>) {
        self.result = result
    }
}

/// The storage of one call: an ``HTTPCallState`` behind a pthread mutex, in one heap object created when the call
/// starts (its first ``HTTPCallContext``) and released with the last context that refers to it. There is no table of
/// calls anywhere: a call's state is reachable only from that call's contexts.
///
/// One allocation: the mutex is the buffer's tail element (a stable address, as POSIX requires), not a second
/// object as in ``Lock``. A pthread mutex, like ``Lock``, because `Synchronization.Mutex` produces false
/// ThreadSanitizer reports on Linux.
///
/// `@unchecked Sendable` is sound: the state (the buffer's header) is only read or written inside ``withLock(_:)``,
/// which holds the mutex for the whole closure; the mutex is initialised in ``make()`` before the storage is shared
/// and destroyed in the buffer's `deinit` after the last reference is gone; the values it holds are `Sendable`.
/// (`ManagedBuffer` itself is never `Sendable`, hence this wrapper.)
struct HTTPCallStorage: @unchecked Sendable {
    private final class Buffer: ManagedBuffer<HTTPCallState, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                _ = mutex.deinitialize(count: 1)
            }
        }
    }

    private let buffer: Buffer

    /// A new, empty storage.
    static func make() -> HTTPCallStorage {
        // `create` makes an instance of the class it is called on.
        let buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in HTTPCallState() }, to: Buffer.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
        return HTTPCallStorage(buffer: buffer)
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout HTTPCallState) -> Result) -> Result {
        buffer.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&state.pointee)
        }
    }
}
