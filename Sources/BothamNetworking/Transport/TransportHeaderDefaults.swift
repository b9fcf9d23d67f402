/// A transport that would send header fields of its own, and says which, so that preparation puts them in the
/// request: every interceptor after preparation, the innermost above all, then sees the request header for header
/// as it goes on the wire, and the transport itself adds nothing (its fields are already there).
///
/// Preparation (`HTTPRequest.prepared(for:)`) adds each field this returns whose name the request does not already
/// carry: a field the user set always wins. Only the framing fields a transport computes while it sends (`Host`,
/// `Content-Length`, `Transfer-Encoding`, `Connection`) stay out of the request.
package protocol TransportHeaderDefaults: HTTPClient {
    /// The header fields this transport adds to `request` — checked, its body encoded and its `Content-Type` set —
    /// when it has none of that name.
    func defaultHeaders(for request: HTTPRequest) -> HTTPHeaders
}
