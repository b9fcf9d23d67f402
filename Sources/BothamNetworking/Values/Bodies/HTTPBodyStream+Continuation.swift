import Foundation

extension HTTPBodyStream {
    /// What ``Continuation/yield(_:)`` tells the producer.
    public enum YieldResult: Sendable, Hashable {
        /// Kept; produce more.
        case enqueued
        /// Kept, and the buffer is full: stop producing until the stream's `onDemand` is called (or use
        /// ``Continuation/send(_:)``, which waits by itself).
        case pause
        /// Not kept: the consumer is gone or the stream has ended. Stop producing.
        case dropped
    }

    /// The producer's end of an ``HTTPBodyStream``: a transport (or a test double) writes chunks into it.
    ///
    /// `Sendable`: all of its state is in the stream's lock-guarded state.
    public struct Continuation: Sendable {
        let state: BodyStreamState

        /// Adds `chunk` to the stream without waiting; see ``YieldResult`` for what to do next.
        @discardableResult
        public func yield(_ chunk: Data) -> YieldResult {
            state.yield(chunk)
        }

        /// Adds `chunk`, then waits while the buffer is full. Returns `false` when the consumer is gone, or when the
        /// producing task is cancelled while it waits (the chunk stays buffered): stop producing.
        public func send(_ chunk: Data) async -> Bool {
            switch state.yield(chunk) {
            case .enqueued: return true
            case .dropped: return false
            case .pause: return await state.waitForDemand()
            }
        }

        /// Ends the stream: the consumer reads what is buffered, then the end, or `error` when there is one.
        public func finish(throwing error: APIClientError? = nil) {
            state.finish(error.map { .failed($0) } ?? .finished)
        }

        /// Whether the consumer has gone away (the producer should stop and free its resources).
        package var isCancelled: Bool { state.isConsumerGone }

        /// Unread bytes in the buffer now.
        package var bufferedBytes: Int { state.bufferedBytes }
    }
}
