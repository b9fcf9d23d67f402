// #34: a streamed response's head is an HTTPResponse (`response.head.statusCode`); the forwarding properties keep
// compiling for at least one minor version.
import Foundation

extension HTTPStreamedResponse {
    /// The status code.
    @available(*, deprecated, renamed: "head.statusCode")
    public var statusCode: Int { head.statusCode }
    /// The status code and its class.
    @available(*, deprecated, renamed: "head.status")
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    @available(*, deprecated, renamed: "head.headers")
    public var headers: HTTPHeaders { head.headers }
    /// The URL the response came from (after redirects).
    @available(*, deprecated, renamed: "head.url")
    public var url: URL? { head.url }
    /// The request as it was sent.
    @available(*, deprecated, renamed: "head.request")
    public var request: HTTPRequest { head.request }
}
