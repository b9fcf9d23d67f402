import BothamNetworking

/// A transport that holds every request it is sent until the test releases it, then answers with `answer` (a
/// scripted response, or another transport it wraps): a test decides when an exchange ends, without sleeping.
///
/// A held send whose task is cancelled ends at once with `APIClientError.cancelled` and is counted in
/// ``cancelledCount``. Shared by the test targets; not part of any product.
public final class HeldTransport: HTTPClient {
    private struct State {
        var isOpen = false
        var held: [Int: CheckedContinuation<Bool, Never>] = [:]
        var lastID = 0
        var requests: [HTTPRequest] = []
        var cancelled = 0
    }

    private let state = Lock(State())
    private let answer: @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse

    /// A transport that answers each released request with `answer`.
    public init(answer: @escaping @Sendable (HTTPRequest) async throws(APIClientError) -> HTTPResponse) {
        self.answer = answer
    }

    /// Every request sent so far, held or not, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    /// How many requests were sent so far.
    public var sendCount: Int { state.withLock { $0.requests.count } }

    /// How many requests are held now.
    public var heldCount: Int { state.withLock { $0.held.count } }

    /// How many held sends were cancelled.
    public var cancelledCount: Int { state.withLock { $0.cancelled } }

    /// Releases the requests held now; later ones are held again.
    public func release() {
        let released = state.withLock { state in
            defer { state.held.removeAll() }
            return Array(state.held.values)
        }
        for continuation in released { continuation.resume(returning: true) }
    }

    /// Releases the requests held now and lets every later one through at once.
    public func open() {
        state.withLock { $0.isOpen = true }
        release()
    }

    /// Holds `request` until it is released (or its task cancelled), then answers it.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let id = state.withLock { state in
            state.lastID += 1
            state.requests.append(request)
            return state.lastID
        }
        let released = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.isOpen { return true }
                    // The cancellation handler takes the same lock: it runs after this send is held, or
                    // `isCancelled` is already true here.
                    if Task.isCancelled { return false }
                    state.held[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.held.removeValue(forKey: id) }
            continuation?.resume(returning: false)
        }
        guard released else {
            state.withLock { $0.cancelled += 1 }
            throw .cancelled
        }
        return try await answer(request)
    }
}
