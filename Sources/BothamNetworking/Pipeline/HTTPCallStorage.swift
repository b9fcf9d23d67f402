/// What one call's attempts share: the values of ``HTTPCallContext`` (``HTTPCallValueKey``), the sends of its
/// ``SendBudget`` and the records of its preparations (``RequestPreparations``).
struct HTTPCallState {
    /// The typed per-call values, by key type.
    var values: [ObjectIdentifier: any Sendable] = [:]
    /// Sends made to the transport so far (counted only for calls with onion interceptors).
    var sends = 0
    /// What the transport answered last (kept only for calls with onion interceptors), in a box of its own so that a
    /// call that never records one carries one word for it, not a whole response.
    var lastSend: SentOutcome?
    /// What preparation established about the call's requests.
    var preparations = RequestPreparations.Records()
}

/// One transport outcome, kept by ``SendBudget``.
final class SentOutcome: Sendable {
    let result: Result<HTTPResponse, APIClientError>

    init(_ result: Result<HTTPResponse, APIClientError>) {
        self.result = result
    }
}

/// The storage of one call: its ``HTTPCallState`` behind a ``Lock`` (one heap object), created when the call starts
/// (its first ``HTTPCallContext``) and released with the last context that refers to it. There is no table of calls
/// anywhere: a call's state is reachable only from that call's contexts.
typealias HTTPCallStorage = Lock<HTTPCallState>
