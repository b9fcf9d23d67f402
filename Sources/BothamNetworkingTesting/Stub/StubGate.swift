import BothamNetworking
import Foundation

/// Holds the next requests a ``StubHTTPClient`` receives that match, until the test releases them: races become
/// reproducible.
///
/// ```swift
/// let gate = stubClient.hold(.header(.authorization, "Bearer old"), next: 10)
/// async let results = tenParallelCalls()
/// try await gate.waitUntilHeld(10)        // every call has sent its request with the old token
/// gate.releaseAll()                       // now all ten get their 401 together
/// ```
///
/// - The gate takes the first `capacity` requests that match (``StubHTTPClient/hold(_:next:)``); later ones pass
///   as if there were no gate. A held request is already in ``StubHTTPClient/receivedRequests``; its stub answer is
///   chosen when it is released, so the release order is the order answers are served in.
/// - ``releaseOne()`` lets the longest-held request go, ``releaseAll()`` every held one and every later one.
/// - A held request whose task is cancelled stops waiting and ends with `APIClientError.cancelled`.
/// - Every wait is bounded: ``waitUntilHeld(_:timeout:)`` throws ``Timeout`` when not enough requests arrive.
public final class StubGate: Sendable {
    /// ``StubGate/waitUntilHeld(_:timeout:)`` ran out before enough requests were held.
    public struct Timeout: Error, Sendable, CustomStringConvertible {
        /// How many held requests were awaited.
        package let expected: Int
        /// How many were held when the wait ended.
        package let held: Int

        /// Says how many were expected and held.
        public var description: String {
            "StubGate: waited for \(expected) held requests, but \(held) were held when the wait timed out"
        }
    }

    private struct State: CountWaitingState {
        var captured = 0
        var isOpen = false
        var held: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        var currentCount: Int { held.count }

        /// Resumes the waiters whose count is reached.
        mutating func wakeWaiters() {
            for waiter in readyWaiters() { waiter.resume(returning: true) }
        }
    }

    /// Which requests the gate holds.
    package let matcher: RequestMatcher
    /// How many requests it holds at most.
    package let capacity: Int
    private let state = Lock(State())

    init(matcher: RequestMatcher, capacity: Int) {
        self.matcher = matcher
        self.capacity = max(0, capacity)
    }

    /// How many requests are held now.
    package var heldCount: Int {
        state.withLock { $0.held.count }
    }

    /// How many requests the gate has taken so far (held now or released).
    package var capturedCount: Int {
        state.withLock { $0.captured }
    }

    /// Waits until `count` requests (default: the gate's capacity) are held at once, at most `timeout`.
    ///
    /// - Throws: ``Timeout`` when they are not held in time, and `CancellationError` when the task is cancelled.
    public func waitUntilHeld(_ count: Int? = nil, timeout: Duration = .seconds(30)) async throws {
        let count = count ?? capacity
        let reached = try await state.waitUntil(countReaches: count, timeout: timeout)
        if !reached { throw Timeout(expected: count, held: heldCount) }
    }

    /// Lets the longest-held request go. Returns whether one was held.
    @discardableResult
    public func releaseOne() -> Bool {
        let released = state.withLock { state in state.held.isEmpty ? nil : state.held.removeFirst() }
        released?.continuation.resume()
        return released != nil
    }

    /// Lets every held request go, and every later one pass.
    public func releaseAll() {
        let released = state.withLock { state in
            state.isOpen = true
            defer { state.held.removeAll() }
            return state.held
        }
        for request in released { request.continuation.resume() }
    }

    /// Whether the gate takes `request` (counting it when it does).
    func admits(_ request: HTTPRequest) -> Bool {
        state.withLock { state in
            guard !state.isOpen, state.captured < capacity, matcher.matches(request) else { return false }
            state.captured += 1
            return true
        }
    }

    /// Waits until the request is released (or its task is cancelled).
    func hold() async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let passes = state.withLock { state in
                    if state.isOpen || state.cancelled.remove(id) != nil { return true }
                    state.held.append((id, continuation))
                    state.wakeWaiters()
                    return false
                }
                if passes { continuation.resume() }
            }
        } onCancel: {
            let held = state.withLock { state in
                guard let index = state.held.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil as CheckedContinuation<Void, Never>?
                }
                return state.held.remove(at: index).continuation
            }
            held?.resume()
        }
    }
}
