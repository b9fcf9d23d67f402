import BothamNetworking
import Foundation

/// Writes the head of an HTTP/1.1 request.
enum HTTPRequestSerializer {
    /// The request line and header fields, ending with the blank line.
    ///
    /// `Host` comes from `origin` unless the request sets one. `Content-Length` is always computed here (any
    /// `Content-Length` or `Transfer-Encoding` of the request is replaced): the body's length, or `0` for a
    /// `POST`, `PUT` or `PATCH` without a body. `acceptEncoding` is added when the request has no
    /// `Accept-Encoding` of its own.
    static func head(
        method: String,
        target: String,
        origin: Origin,
        headers: HTTPHeaders,
        bodyLength: Int?,
        acceptEncoding: String?
    ) -> Data {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        text.reserveCapacity(256)
        if !headers.contains(.host) { text += "Host: \(origin.hostHeader)\r\n" }
        for field in headers where field.name != .contentLength && field.name != .transferEncoding {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        if let acceptEncoding, !headers.contains(.acceptEncoding) {
            text += "Accept-Encoding: \(acceptEncoding)\r\n"
        }
        if let bodyLength {
            text += "Content-Length: \(bodyLength)\r\n"
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            text += "Content-Length: 0\r\n"
        }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// One chunk of a `Transfer-Encoding: chunked` body (an empty `chunk` is the last chunk), for streamed bodies.
    static func chunk(_ chunk: Data) -> Data {
        if chunk.isEmpty { return Data("0\r\n\r\n".utf8) }
        var framed = Data(String(chunk.count, radix: 16).utf8)
        framed.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
        framed.append(chunk)
        framed.append(contentsOf: [HTTPSyntax.cr, HTTPSyntax.lf])
        return framed
    }
}
