import BothamNetworking
import Foundation

/// Writes the head of an HTTP/1.1 request.
enum HTTPRequestSerializer {
    /// The request line and header fields, ending with the blank line.
    ///
    /// `Host` comes from `origin` unless the request sets one. `Content-Length` is always computed here (any
    /// `Content-Length` or `Transfer-Encoding` of the request is replaced): the body's length, or `0` for a
    /// `POST`, `PUT` or `PATCH` without a body. Every other field is the request's own: the client's
    /// `Accept-Encoding` was added at preparation (`NativeHTTPClient.defaultHeaders(for:)`).
    static func head(
        method: String,
        target: String,
        origin: Origin,
        headers: HTTPHeaders,
        bodyLength: Int?,
        chunked: Bool = false
    ) -> Data {
        // Built as bytes: a dozen String appends and the final UTF-8 copy cost several times more.
        var head = [UInt8]()
        head.reserveCapacity(256)
        func line(_ name: String, _ value: String) {
            head.append(contentsOf: name.utf8)
            head.append(UInt8(ascii: ":"))
            head.append(UInt8(ascii: " "))
            head.append(contentsOf: value.utf8)
            head.append(HTTPSyntax.cr)
            head.append(HTTPSyntax.lf)
        }
        head.append(contentsOf: method.utf8)
        head.append(UInt8(ascii: " "))
        head.append(contentsOf: target.utf8)
        head.append(contentsOf: " HTTP/1.1\r\n".utf8)
        if !headers.contains(.host) { line("Host", origin.hostHeader) }
        for field in headers.fields where field.name != .contentLength && field.name != .transferEncoding {
            line(field.name.rawName, field.value)
        }
        if chunked {
            line("Transfer-Encoding", "chunked")
        } else if let bodyLength {
            line("Content-Length", String(bodyLength))
        } else if method == "POST" || method == "PUT" || method == "PATCH" {
            line("Content-Length", "0")
        }
        head.append(HTTPSyntax.cr)
        head.append(HTTPSyntax.lf)
        return Data(head)
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
