/// Observes calls as they finish: exactly once per call, after the last attempt and the client's validation.
///
/// Deprecated: an ``HTTPInterceptor`` is told the same thing by its ``HTTPInterceptor/callDidFinish(_:result:context:)``,
/// so a feature that needs the end of the call is one object in one list (`apiClient.interceptors.append(...)`).
/// Observers registered in `Configuration.callObservers` are still told, after the interceptors.
@available(
    *, deprecated,
    message: "implement HTTPInterceptor.callDidFinish(_:result:context:) and append the interceptor to interceptors"
)
public protocol HTTPCallObserver: Sendable {
    /// Called once when a call ends. `request` is the original request, `result` what the caller receives and
    /// `context` the context of the last attempt (``HTTPCallContext/attempt`` is how many attempts were made).
    func callDidFinish(_ request: HTTPRequest, result: Result<HTTPResponse, APIClientError>, context: HTTPCallContext)
}

/// A call observer registered through the deprecated `Configuration.callObservers`: the observer, and how to tell
/// it that a call ended (captured where naming the deprecated protocol is allowed).
struct LegacyCallObserver: Sendable {
    /// The observer as it was registered, given back by `callObservers`.
    let observer: any Sendable
    /// Tells `observer` that a call ended.
    let callDidFinish: @Sendable (HTTPRequest, Result<HTTPResponse, APIClientError>, HTTPCallContext) -> Void
}
