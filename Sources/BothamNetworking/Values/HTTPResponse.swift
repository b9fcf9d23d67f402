import Foundation

/// A response from the server, with the request that produced it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, for example `200`.
    public let statusCode: Int
    /// The header fields; lookups ignore case.
    public let headers: HTTPHeaders
    /// The body bytes (empty when there was none).
    public let body: Data
    /// The request that produced this response, as it was sent (after every request interceptor).
    public let request: HTTPRequest
    /// The URL the response came from; differs from the request's URL after redirects.
    public let url: URL?

    /// Creates a response.
    public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), request: HTTPRequest, url: URL? = nil)
    {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.request = request
        self.url = url ?? request.url
    }

    /// The status code and its class: `response.status.kind == .successful`.
    public var status: HTTPStatus { HTTPStatus(code: statusCode) }

    /// A copy with another body, for interceptors that rewrite responses.
    public func withBody(_ body: Data) -> HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, request: request, url: url)
    }

    /// A copy with other headers.
    public func withHeaders(_ headers: HTTPHeaders) -> HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, request: request, url: url)
    }

    /// A copy with another status code.
    public func withStatusCode(_ statusCode: Int) -> HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, request: request, url: url)
    }
}

extension HTTPResponse: CustomStringConvertible {
    /// `200 GET https://…`
    public var description: String {
        "\(statusCode) \(request.description)"
    }
}

extension HTTPResponse: CustomDebugStringConvertible {
    /// Status, request, headers and body for people; binary bodies never crash it.
    public var debugDescription: String {
        var lines = [description]
        if !headers.isEmpty { lines.append(headers.description) }
        lines.append(DebugText.body(body))
        return lines.joined(separator: "\n")
    }
}
