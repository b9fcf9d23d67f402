import Foundation

/// The status, header fields and body of a response made from a value by a `ResponseEncoding`: what a server
/// would answer for the value to decode back to it. Test doubles answer with it (`StubHTTPClient`'s typed endpoint
/// stubs), so a test never writes the JSON by hand.
package struct EncodedResponse: Sendable, Hashable {
    /// The status code: `200`, or the status of an allowed empty response (see
    /// ``ResponseEncoding/json(_:emptyResponses:)``).
    package var statusCode: Int
    /// The header fields, `Content-Type` among them when there is a body.
    package var headers: HTTPHeaders
    /// The body bytes.
    package var body: Data

    /// Creates an encoded response.
    package init(statusCode: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}
