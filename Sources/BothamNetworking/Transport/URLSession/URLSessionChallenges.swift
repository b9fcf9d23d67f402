import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The authentication challenges of one ``URLSessionTransfer``: the transport answers none (authentication is the
/// interceptors' job), and remembers that it rejected one, because on Linux a rejected challenge completes its task
/// with `URLError(.cancelled)` after delivering the 401 or 407 — which is then the response, not a cancellation.
/// It also remembers why a server-trust challenge was cancelled (Apple platforms), since the task then ends with
/// `URLError(.cancelled)` too.
struct URLSessionChallenges {
    private var rejected = false
    /// Why the server was rejected (a pin mismatch, an untrusted chain), when the transport rejected it.
    private(set) var tlsFailure: TLSError?

    /// The server-trust challenge was cancelled for `failure`.
    mutating func rejectServer(_ failure: TLSError) {
        tlsFailure = failure
    }

    /// A challenge was rejected.
    mutating func reject() {
        rejected = true
    }

    /// Whether a task that completed with `error` ended because of a rejected challenge (its response is complete).
    func endedByRejection(_ error: (any Error)?) -> Bool {
        rejected && (error as? URLError)?.code == .cancelled
    }
}
