import BothamNetworking
import Foundation

/// A request's head as each version of HTTP sends it: HTTP/1.1's serialized bytes, and the parts HTTP/2 turns into
/// its pseudo-fields and field section.
struct RequestHead: Sendable {
    /// The request line and header fields, serialized for HTTP/1.1 (with `Host`, and `Content-Length` or
    /// `Transfer-Encoding: chunked`).
    var http1: Data
    /// The method token.
    var method: String
    /// The origin: `:scheme`, and `:authority` unless the request set its own `Host` (taken from it only over
    /// HTTP/2, so that HTTP/1.1 requests build no authority string).
    var origin: Origin
    /// The request target in origin form (`/path?query`).
    var path: String
    /// The request's own fields.
    var headers: HTTPHeaders
    /// The body's length when known (`nil`: none, or a streamed body of unknown length).
    var bodyLength: Int?
    /// Whether HTTP/1.1 frames the body in chunks (a streamed body of unknown length).
    var chunked: Bool
}
