import Foundation

/// The sends one call may make to the transport: 1 + its retry budget, whatever asks for them — the retry loop,
/// a response interceptor's `.retry`, a retry strategy, or an ``HTTPInterceptor`` that calls `next` more than once.
///
/// `Sendable`: the counts are behind the ``Lock`` (an onion interceptor may call `next` from several tasks).
final class SendBudget: Sendable {
    private struct State {
        var sends = 0
        var last: Result<HTTPResponse, APIClientError>?
    }

    /// The most sends.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        self.limit = Swift.max(1, limit)
    }

    /// Takes one send, or throws ``APIClientError/retryLimitExceeded(attempts:lastOutcome:)`` (with the last
    /// transport outcome) when they are used up; nothing is sent then.
    func spend() throws(APIClientError) {
        let refusal = state.withLock { state -> APIClientError? in
            guard state.sends < limit else {
                let last = state.last ?? .failure(.invalidRequest(reason: "the call's send budget is spent"))
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
        let kept = outcome.map { $0.bodyStream == nil ? $0 : $0.withBody(Data()) }
        state.withLock { $0.last = kept }
    }

    /// Sends made so far.
    var sends: Int { state.withLock { $0.sends } }
}
