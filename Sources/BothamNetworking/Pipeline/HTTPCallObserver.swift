/// Observes calls as they finish: exactly once per call, after the last attempt and the client's validation.
///
/// Interceptors see attempts; an observer sees the call as a whole (how many attempts it took, how it ended), which
/// is what metrics need. Register observers in ``BothamAPIClient/Configuration/callObservers``.
///
/// ```swift
/// struct CallCounter: HTTPCallObserver {
///     func callDidFinish(
///         _ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext
///     ) {
///         print("call \(context.callID) finished after \(context.attempt) attempt(s)")
///     }
/// }
/// apiClient.configuration.callObservers.append(CallCounter())
/// ```
///
/// The method runs on the task that made the call, before the result is returned; keep it short and non-blocking.
public protocol HTTPCallObserver: Sendable {
    /// Called once when a call ends. `request` is the original request, `result` what the caller receives and
    /// `context` the context of the last attempt (``HTTPCallContext/attempt`` is how many attempts were made).
    func callDidFinish(_ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext)
}
