/// What a transport is told about the request it is sending: whether an `HTTPInterceptor` changed it after
/// preparation.
///
/// A request changed there may carry a signature over exactly the fields it has, so a transport must not add or
/// change any: `URLSessionHTTPClient` fetches such a request's file body in one task, never in byte-range segments
/// (``URLSessionHTTPClient/Configuration/downloadSegmentBytes``). The client sets it around each send.
package enum InterceptorChanges {
    /// Whether an `HTTPInterceptor` of the client (in `interceptors` or `networkInterceptors`) changed the request
    /// being sent after the client prepared it.
    @TaskLocal package static var changedRequest = false
}
