import Foundation

/// What the server does with the connection when it answers with a ``MockResponse``: the normal behaviour or a
/// deliberate fault, to test how a client copes with broken servers and networks.
///
/// Every policy applies after the request has been read completely and recorded, so
/// ``MockWebServer/takeRequest(timeout:)`` sees the request even when the response is a fault.
public enum SocketPolicy: Sendable, Hashable {
    /// The default: answer normally and keep the connection open for the next request, unless HTTP says
    /// otherwise (the client sent `Connection: close`, an HTTP/1.0 client did not ask for keep-alive, or the
    /// response has ``MockResponse/closingConnection()``).
    case keepOpen
    /// Close the connection without sending a byte: the client sees end of stream (EOF) before any response.
    case disconnectAtStart
    /// Send the status line and headers, then close: the client sees a response whose body never arrives.
    /// (With an empty body the response is complete; give the response a body to make this a fault.)
    case disconnectAfterHeaders
    /// Send the headers and the first half of the body bytes as they appear on the wire, then close.
    case disconnectDuringBody
    /// Send nothing and keep the connection open until the client closes it or the server shuts down: the client's
    /// timeout fires, or its cancellation closes the connection.
    case noResponse
    /// Send `HTTP/1.1 ABC MALFORMED\r\n\r\n` (a status line without a numeric code), then close.
    case malformedStatusLine
    /// Declare a `Content-Length` 1,024 bytes larger than the body, send the body, then close: the client sees
    /// the body end early.
    case wrongContentLength
    /// Send a chunked response with the chunks for the first half of the body but no terminating zero-length
    /// chunk, then close.
    case truncatedChunkedBody
    /// Close with `SO_LINGER` set to zero, so the kernel sends a TCP reset (RST): the client sees "connection
    /// reset by peer" instead of a response.
    case resetConnection
    /// Send these bytes exactly as given in place of the response (its status, headers, body and interim
    /// responses are not used; its headers delay is), for wire shapes the builders cannot make: a malformed head,
    /// chunk extensions and trailers, several interim responses, a body delimited by closing the connection. The
    /// connection is then kept open for the next request unless the response has
    /// ``MockResponse/closingConnection()`` (closed without sending `Connection: close`) or the client
    /// asked to close it. The bytes are not counted in ``MockWebServer/responseBodyBytesWritten``.
    ///
    /// ```swift
    /// let closeDelimited = Data("HTTP/1.0 200 OK\r\n\r\nuntil close".utf8)
    /// server.enqueue(MockResponse().withSocketPolicy(.raw(closeDelimited)).closingConnection())
    /// ```
    case raw(Data)
}
