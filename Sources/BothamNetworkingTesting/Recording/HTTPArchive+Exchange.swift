import BothamNetworking
import Foundation

extension HTTPArchive.Request {
    /// `request` as it is recorded: redacted by `redactor`, with its body unless that is streamed or larger than
    /// `maximumBodySize`.
    init(_ request: HTTPRequest, redactor: Redactor, maximumBodySize: Int) {
        let url = request.url.map { redactor.redact($0) } ?? redactor.redactedURL(of: request)
        let items = URLComponents(string: url)?.queryItems ?? []
        let contentType = request.headers[.contentType]
        var postData: HTTPArchive.PostData?
        var bodySize = 0
        if let body = request.body {
            let mimeType = contentType ?? ""
            if let fileURL = body.fileURL, let size = HTTPArchive.fileSize(fileURL), size > maximumBodySize {
                bodySize = size
                postData = HTTPArchive.PostData(
                    mimeType: mimeType, comment: "file body of \(size) bytes, larger than maximumBodySize: not recorded"
                )
            } else if let data = ((try? request.bodyData()) ?? nil) {
                bodySize = data.count
                postData =
                    data.count > maximumBodySize
                    ? HTTPArchive.PostData(
                        mimeType: mimeType,
                        comment: "body of \(data.count) bytes, larger than maximumBodySize: not recorded")
                    : HTTPArchive.PostData(
                        mimeType: mimeType, body: redactor.redact(body: data, contentType: contentType))
            } else {
                bodySize = -1
                postData = HTTPArchive.PostData(mimeType: mimeType, comment: "streamed body: not recorded")
            }
        }
        self.init(
            method: request.method.rawValue, url: url, httpVersion: "HTTP/1.1", cookies: [],
            headers: HTTPArchive.pairs(redactor.redact(request.headers)),
            queryString: items.map { HTTPArchive.NameValue(name: $0.name, value: $0.value ?? "") },
            postData: postData, headersSize: -1, bodySize: bodySize)
    }
}

extension HTTPArchive.Request {
    /// Records the streamed body `capture` read (redacted like any body), or says why it is left out: larger than
    /// `maximumBodySize`, or not read to its end.
    mutating func recordStreamedBody(
        _ capture: StreamedBodyTee.Capture, contentType: String?, redactor: Redactor, maximumBodySize: Int
    ) {
        let mimeType = contentType ?? ""
        if capture.size > maximumBodySize {
            bodySize = capture.ended ? capture.size : -1
            let size = capture.ended ? "\(capture.size) bytes" : "more than \(maximumBodySize) bytes"
            postData = HTTPArchive.PostData(
                mimeType: mimeType, comment: "streamed body of \(size), larger than maximumBodySize: not recorded")
        } else if !capture.ended {
            bodySize = -1
            postData = HTTPArchive.PostData(
                mimeType: mimeType,
                comment: "streamed body not read to its end (\(capture.size) bytes read when the response came): "
                    + "not recorded")
        } else {
            bodySize = capture.size
            postData = HTTPArchive.PostData(
                mimeType: mimeType, body: redactor.redact(body: capture.data, contentType: contentType))
        }
    }
}

extension HTTPArchive.PostData {
    /// A body recorded as text when it is UTF-8, else as base64.
    init(mimeType: String, body: Data) {
        let (text, encoding) = HTTPArchive.text(of: body)
        self.init(mimeType: mimeType, text: text, encoding: encoding)
    }
}

extension HTTPArchive.Response {
    /// The head of `response` and `body` (what the caller received, before redaction) as recorded; a `body` of
    /// `nil` is left out, with `omission` as the reason.
    init(_ response: HTTPResponse, body: Data?, size: Int, omission: String?, redactor: Redactor) {
        let contentType = response.headers[.contentType]
        var content = HTTPArchive.Content(size: size, mimeType: contentType ?? "")
        if let body {
            (content.text, content.encoding) = HTTPArchive.text(
                of: redactor.redact(body: body, contentType: contentType))
        } else {
            content.comment = omission
        }
        self.init(
            status: response.statusCode, statusText: "", httpVersion: "HTTP/1.1", cookies: [],
            headers: HTTPArchive.pairs(redactor.redact(response.headers)), content: content,
            redirectURL: response.headers[.location].map { redactor.redact(uriReference: $0) } ?? "",
            headersSize: -1, bodySize: size)
    }

    /// The recorded response as an `HTTPResponse` to `request`.
    ///
    /// - Throws: ``RecordingError/bodyNotRecorded(request:reason:)`` when the body was left out, or is not valid
    ///   base64.
    func response(to request: HTTPRequest) throws(RecordingError) -> HTTPResponse {
        let body: Data
        switch (content.text, content.encoding) {
        case (nil, _) where content.size != 0:
            throw .bodyNotRecorded(request: request.description, reason: content.comment ?? "no text")
        case (nil, _):
            body = Data()
        case (let text?, "base64"?):
            guard let decoded = Data(base64Encoded: text) else {
                throw .bodyNotRecorded(request: request.description, reason: "its base64 text is not valid")
            }
            body = decoded
        case (let text?, _):
            body = Data(text.utf8)
        }
        let fields = headers.map { HTTPHeaders.Field(name: HTTPFieldName($0.name), value: $0.value) }
        return HTTPResponse(
            statusCode: status, headers: HTTPHeaders(fields), body: request.method == .head ? Data() : body,
            request: request)
    }
}

extension HTTPArchive.Content {
    init(size: Int, mimeType: String) {
        self.init(size: size, mimeType: mimeType, text: nil, encoding: nil, comment: nil)
    }
}

extension HTTPArchive {
    /// The header fields as name and value pairs, in order.
    static func pairs(_ headers: HTTPHeaders) -> [NameValue] {
        headers.fields.map { NameValue(name: $0.name.rawName, value: $0.value) }
    }

    /// `data` as UTF-8 text, or as base64 (with the encoding `base64`) when it is not valid UTF-8.
    static func text(of data: Data) -> (text: String, encoding: String?) {
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        return (data.base64EncodedString(), "base64")
    }

    /// The size of the file at `url`, or `nil` when it cannot be read.
    static func fileSize(_ url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue
    }

    /// Milliseconds in `duration`.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `date` in ISO 8601 with milliseconds, as HAR's `startedDateTime`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension HTTPArchive.Timings {
    /// The recorder's own `wait` (start to response) and `receive` (a streamed body), replaced by the phases the
    /// transport measured (`measured`, the response's `HTTPResponse.timings`) where it has them.
    init(wait: Duration, receive: Duration, measured: HTTPResponse.Timings?) {
        self.init(send: 0, wait: HTTPArchive.milliseconds(wait), receive: HTTPArchive.milliseconds(receive))
        guard let measured else { return }
        func milliseconds(_ phase: HTTPResponse.Timings.Phase?) -> Double? {
            phase.map { HTTPArchive.milliseconds($0.duration) }
        }
        let ssl = milliseconds(measured.tlsHandshake)
        dns = milliseconds(measured.dnsLookup) ?? -1
        connect = milliseconds(measured.connect).map { $0 + (ssl ?? 0) } ?? -1
        self.ssl = ssl ?? -1
        send = milliseconds(measured.requestSent) ?? 0
        if let waiting = milliseconds(measured.waiting) { self.wait = waiting }
        if let received = milliseconds(measured.bodyReceived) { self.receive = received }
    }
}
