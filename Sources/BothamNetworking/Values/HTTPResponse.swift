import Foundation

/// A response from the server, with the request that produced it.
public struct HTTPResponse: Sendable {
    /// The fields, shared by every copy (a copy is one retain).
    private let storage: HTTPResponseStorage

    /// The status code, for example `200`.
    public var statusCode: Int { storage.fields.statusCode }
    /// The header fields; lookups ignore case.
    public var headers: HTTPHeaders { storage.fields.headers }
    /// The body bytes (empty when there was none, and when the body went to ``bodyFileURL``).
    public var body: Data { storage.fields.body }
    /// The file holding the body when the request's ``HTTPRequest/responseDestination`` is a file or a folder, or
    /// `nil` when the body is in ``body``.
    public var bodyFileURL: URL? { storage.fields.bodyFileURL }
    /// The request that produced this response, as it was sent (after every request interceptor).
    public var request: HTTPRequest { storage.fields.request }
    /// The URL the response came from; differs from the request's URL after redirects.
    public var url: URL? { storage.fields.url }
    /// The body as it arrives, when the request's ``HTTPRequest/responseDestination`` is
    /// ``ResponseBodyDestination/stream`` and the transport streams (``body`` is then empty); `nil` otherwise.
    /// ``BothamAPIClient/stream(_:callTimeout:)`` hands it to you as ``HTTPStreamedResponse/body``.
    public var bodyStream: HTTPBodyStream? { storage.fields.bodyStream }
    /// Where the exchange that produced this response spent its time, as its transport measured it; `nil` when the
    /// transport measures nothing (a stub, a transport of your own). Not part of equality: two responses that
    /// differ only in their timings are equal. See ``HTTPResponse/Timings`` for what each transport reports.
    public var timings: HTTPResponse.Timings? { storage.fields.timingsSlot.timings }
    /// The version of HTTP the response came over (from ``timings``); `nil` when the transport cannot tell.
    package var protocolVersion: HTTPResponse.ProtocolVersion? { timings?.protocolVersion }

    /// Creates a response.
    public init(
        statusCode: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        request: HTTPRequest,
        url: URL? = nil,
        bodyFileURL: URL? = nil,
        bodyStream: HTTPBodyStream? = nil,
        timings: HTTPResponse.Timings? = nil
    ) {
        self.init(
            statusCode: statusCode, headers: headers, body: body, request: request, url: url ?? request.url,
            bodyFileURL: bodyFileURL, bodyStream: bodyStream, timingsSlot: ResponseTimingsSlot(timings))
    }

    /// A copy of this response with the fields given changed; its timings are shared with this one (the same box:
    /// copying a measured response allocates nothing for them).
    private func copy(
        statusCode: Int? = nil, headers: HTTPHeaders? = nil, body: Data? = nil, bodyFileURL: URL?? = nil,
        keepsStream: Bool = true, timings: ResponseTimingsSlot? = nil, upgrade: UpgradeSlot? = nil
    ) -> HTTPResponse {
        HTTPResponse(
            statusCode: statusCode ?? self.statusCode, headers: headers ?? self.headers, body: body ?? self.body,
            request: request, url: url, bodyFileURL: bodyFileURL ?? self.bodyFileURL,
            bodyStream: keepsStream ? bodyStream : nil, timingsSlot: timings ?? storage.fields.timingsSlot,
            upgradeSlot: upgrade ?? storage.fields.upgradeSlot)
    }

    private init(
        statusCode: Int, headers: HTTPHeaders, body: Data, request: HTTPRequest, url: URL?, bodyFileURL: URL?,
        bodyStream: HTTPBodyStream?, timingsSlot: ResponseTimingsSlot, upgradeSlot: UpgradeSlot = UpgradeSlot()
    ) {
        storage = HTTPResponseStorage(
            .init(
                statusCode: statusCode, headers: headers, body: body, bodyFileURL: bodyFileURL, request: request,
                url: url, bodyStream: bodyStream, timingsSlot: timingsSlot, upgradeSlot: upgradeSlot))
    }

    /// The status code and its class: `response.status.kind == .successful`.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    /// A copy with another body in memory, for interceptors that rewrite responses (``bodyFileURL`` is kept; a
    /// ``bodyStream`` is not, and the stream ends when nothing else holds it).
    public func withBody(_ body: Data) -> HTTPResponse {
        copy(body: body, keepsStream: false)
    }

    /// A copy with other headers.
    public func withHeaders(_ headers: HTTPHeaders) -> HTTPResponse {
        copy(headers: headers)
    }

    /// A copy with another status code.
    package func withStatusCode(_ statusCode: Int) -> HTTPResponse {
        copy(statusCode: statusCode)
    }

    /// A copy with other timings (a transport sets what it measured; `nil` removes them).
    package func withTimings(_ timings: HTTPResponse.Timings?) -> HTTPResponse {
        copy(timings: ResponseTimingsSlot(timings))
    }

    /// A copy carrying the connection a `101 Switching Protocols` handed over (`handle` owns it).
    package func withUpgrade(_ handle: any AnyObject & Sendable) -> HTTPResponse {
        copy(upgrade: UpgradeSlot(handle))
    }

    /// The connection a `101 Switching Protocols` handed over, if the transport put one on this response.
    package var upgrade: (any AnyObject & Sendable)? { storage.fields.upgradeSlot.handle }

    /// A copy whose body is in the file at `bodyFileURL` (`nil`: in ``body``), with `body` as its in-memory body.
    package func withBodyFile(_ bodyFileURL: URL?, body: Data = Data()) -> HTTPResponse {
        copy(body: body, bodyFileURL: .some(bodyFileURL), keepsStream: false)
    }
}

extension HTTPResponse: Hashable {
    /// Equal when every field but the timings is equal.
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every field but the timings.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
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
