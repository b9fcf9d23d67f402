import Foundation

/// A response from the server, with the request that produced it.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, for example `200`.
    public let statusCode: Int
    /// The header fields; lookups ignore case.
    public let headers: HTTPHeaders
    /// The body bytes (empty when there was none, and when the body went to ``bodyFileURL``).
    public let body: Data
    /// The file holding the body when the request's ``HTTPRequest/responseDestination`` is a file or a folder, or
    /// `nil` when the body is in ``body``.
    public let bodyFileURL: URL?
    /// The request that produced this response, as it was sent (after every request interceptor).
    public let request: HTTPRequest
    /// The URL the response came from; differs from the request's URL after redirects.
    public let url: URL?
    /// The body as it arrives, when the request's ``HTTPRequest/responseDestination`` is
    /// ``ResponseBodyDestination/stream`` and the transport streams (``body`` is then empty); `nil` otherwise.
    /// ``BothamAPIClient/stream(_:deadline:)`` hands it to you as ``HTTPStreamedResponse/body``.
    public let bodyStream: HTTPBodyStream?
    /// Where the exchange that produced this response spent its time, as its transport measured it; `nil` when the
    /// transport measures nothing (a stub, a transport of your own). Not part of equality: two responses that
    /// differ only in their timings are equal. See ``HTTPTimings`` for what each transport reports.
    public var timings: HTTPTimings? { timingsSlot.timings }
    private let timingsSlot: ResponseTimingsSlot

    /// Creates a response.
    public init(
        statusCode: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        request: HTTPRequest,
        url: URL? = nil,
        bodyFileURL: URL? = nil,
        bodyStream: HTTPBodyStream? = nil,
        timings: HTTPTimings? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.request = request
        self.url = url ?? request.url
        self.bodyFileURL = bodyFileURL
        self.bodyStream = bodyStream
        timingsSlot = ResponseTimingsSlot(timings)
    }

    /// The status code and its class: `response.status.kind == .successful`.
    public var status: HTTPStatus { HTTPStatus(code: statusCode) }

    /// A copy with another body in memory, for interceptors that rewrite responses (``bodyFileURL`` is kept; a
    /// ``bodyStream`` is not, and the stream ends when nothing else holds it).
    public func withBody(_ body: Data) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url, bodyFileURL: bodyFileURL,
            timings: timings)
    }

    /// A copy with other headers.
    public func withHeaders(_ headers: HTTPHeaders) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url, bodyFileURL: bodyFileURL,
            bodyStream: bodyStream, timings: timings)
    }

    /// A copy with another status code.
    public func withStatusCode(_ statusCode: Int) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url, bodyFileURL: bodyFileURL,
            bodyStream: bodyStream, timings: timings)
    }

    /// A copy with other timings (a transport sets what it measured; `nil` removes them).
    public func withTimings(_ timings: HTTPTimings?) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url, bodyFileURL: bodyFileURL,
            bodyStream: bodyStream, timings: timings)
    }

    /// A copy whose body is in the file at `bodyFileURL` (`nil`: in ``body``), with `body` as its in-memory body.
    public func withBodyFile(_ bodyFileURL: URL?, body: Data = Data()) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url, bodyFileURL: bodyFileURL,
            timings: timings)
    }
}

extension HTTPResponse: CustomStringConvertible {
    /// `200 GET https://…`
    public var description: String {
        "\(statusCode) \(request.description)"
    }
}

extension HTTPResponse: CustomDebugStringConvertible {
    /// Status, request, headers and body for people; binary bodies never crash it. What ``Redactor/default`` hides
    /// (`Set-Cookie` and other credential headers, secret fields of a JSON or form body) shows `REDACTED`.
    public var debugDescription: String {
        var lines = [description]
        if !headers.isEmpty { lines.append(headers.description) }
        if let bodyFileURL {
            lines.append("(body in \(DebugText.printable(bodyFileURL.path)))")
        } else if bodyStream != nil {
            lines.append("(body streamed)")
        } else {
            lines.append(DebugText.body(Redactor.default.redact(body: body, contentType: headers[.contentType])))
        }
        return lines.joined(separator: "\n")
    }
}
