import Foundation

/// The sends one call may make to the transport: 1 + its retry budget, whatever asks for them — the retry loop,
/// a response interceptor's `.retry`, a retrier, or an ``HTTPInterceptor`` that calls `next` more than once.
///
/// The counts are the call's own (in its ``HTTPCallStorage``, behind its lock: an onion interceptor may call `next`
/// from several tasks): a budget allocates nothing but the box of the outcome it keeps.
struct SendBudget: Sendable {
    /// The most sends.
    let limit: Int
    private let storage: HTTPCallStorage

    /// The budget of the call `context` belongs to.
    init(limit: Int, of context: HTTPCallContext) {
        self.limit = Swift.max(1, limit)
        storage = context.storage
    }

    /// Takes one send, or throws ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)`` (with the last
    /// transport outcome) when they are used up; nothing is sent then.
    func spend() throws(APIClientError) {
        let refusal = storage.withLock { state -> APIClientError? in
            guard state.sends < limit else {
                let spent = APIClientError.invalidRequest(reason: "the call's send budget is spent")
                let last = state.lastSend?.result ?? .failure(spent)
                return .retryLimitExceeded(attempts: state.sends, lastOutcome: last)
            }
            state.sends += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Remembers what the transport answered, for the error of a refused send (a streamed body is not kept: holding
    /// it would keep a discarded response's connection open).
    func record(_ outcome: Result<HTTPResponse, APIClientError>) {
        let kept = SentOutcome(outcome.map { $0.bodyStream == nil ? $0 : $0.withBody(Data()) })
        storage.withLock { $0.lastSend = kept }
    }

    /// Sends made so far.
    var sends: Int { storage.withLock { $0.sends } }

    /// Drops the kept outcome once the call has ended, so a context kept after the call holds no response.
    func forgetLastSend() {
        storage.withLock { $0.lastSend = nil }
    }
}
