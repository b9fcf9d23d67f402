import Foundation

/// Body sizes and previews for logs, metrics and cURL that never load a file body into memory.
enum BodyPreview {
    /// The number of body bytes `request` sends (a file body's size is read from the file system).
    static func byteCount(of request: HTTPRequest) -> Int {
        guard let body = request.body else { return 0 }
        if let url = body.fileURL { return (try? FileBody.size(of: url)) ?? 0 }
        return ((try? request.bodyData()) ?? nil)?.count ?? 0
    }

    /// The request body for people, its hidden fields redacted (see ``Redactor/redact(body:contentType:)``), at most
    /// `limit` bytes of it; a file body is named, not read.
    static func text(of request: HTTPRequest, limit: Int, redactor: Redactor) -> String? {
        guard let body = request.body else { return nil }
        if body.fileURL != nil { return "\(body.description) (\(byteCount(of: request)) bytes)" }
        guard let data = (try? request.bodyData()) ?? nil else { return nil }
        return DebugText.body(redactor.redact(body: data, contentType: request.headers[.contentType]), limit: limit)
    }

    /// The response body for people, its hidden fields redacted, at most `limit` bytes of it.
    static func text(of response: HTTPResponse, limit: Int, redactor: Redactor) -> String {
        DebugText.body(redactor.redact(body: response.body, contentType: response.headers[.contentType]), limit: limit)
    }
}
