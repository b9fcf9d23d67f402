// #34: a streamed response's head is an HTTPResponse (`response.head.statusCode`); the forwarding properties keep
// compiling for at least one minor version.
import Foundation

extension HTTPStreamedResponse {
    /// The status code.
    @available(*, deprecated, message: "read it from head: response.head.statusCode")
    public var statusCode: Int { head.statusCode }
    /// The status code and its class.
    @available(*, deprecated, message: "read it from head: response.head.status")
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    @available(*, deprecated, message: "read it from head: response.head.headers")
    public var headers: HTTPHeaders { head.headers }
    /// The URL the response came from (after redirects).
    @available(*, deprecated, message: "read it from head: response.head.url")
    public var url: URL? { head.url }
    /// The request as it was sent.
    @available(*, deprecated, message: "read it from head: response.head.request")
    public var request: HTTPRequest { head.request }
}
