#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A joinable POSIX thread, so shutdown can prove every thread the server started has finished.
///
/// `@unchecked Sendable` is sound: `pthread_t` is an opaque identifier (an integer on Linux, a pointer on Darwin)
/// that POSIX allows any thread to pass to `pthread_join`/`pthread_equal`; the struct is immutable, and the server
/// joins each handle exactly once (handles are removed from the server's locked state before joining).
struct ServerThread: @unchecked Sendable {
    private let handle: pthread_t

    /// Starts a thread running `body`.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws(MockWebServerError) -> ServerThread {
        let argument = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
            var handle: pthread_t?
            let result = pthread_create(&handle, nil, { raw in runThreadBody(raw) }, argument)
            guard result == 0, let handle else {
                Unmanaged<ThreadBody>.fromOpaque(argument).release()
                throw .systemCallFailed(operation: "pthread_create", errno: result)
            }
        #else
            var handle = pthread_t()
            let result = pthread_create(
                &handle,
                nil,
                { raw in
                    guard let raw else { return nil }
                    return runThreadBody(raw)
                },
                argument
            )
            guard result == 0 else {
                Unmanaged<ThreadBody>.fromOpaque(argument).release()
                throw .systemCallFailed(operation: "pthread_create", errno: result)
            }
        #endif
        return ServerThread(handle: handle)
    }

    /// Waits for the thread to finish. When called on the thread itself (shutdown from inside a dispatcher) it
    /// detaches instead, because a thread cannot join itself.
    func join() {
        if pthread_equal(pthread_self(), handle) != 0 {
            _ = pthread_detach(handle)
        } else {
            _ = pthread_join(handle, nil)
        }
    }

    /// Lets the thread run on without joining it: its resources go when it ends.
    func detach() {
        _ = pthread_detach(handle)
    }

    /// The thread the caller runs on (to compare with ``isCurrent``; never joined or detached through this value).
    static var current: ServerThread {
        ServerThread(handle: pthread_self())
    }

    /// Whether the caller is running on this thread.
    var isCurrent: Bool {
        pthread_equal(pthread_self(), handle) != 0
    }
}

/// The closure a new thread runs, boxed so it can travel through `pthread_create`'s `void *` argument.
private final class ThreadBody {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}

private func runThreadBody(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let box = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
    box.body()
    return nil
}
