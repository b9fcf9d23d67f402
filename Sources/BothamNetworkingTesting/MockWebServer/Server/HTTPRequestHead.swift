import BothamNetworking
import Foundation

/// The request line and header section of one request.
struct HTTPRequestHead {
    var method: HTTPMethod
    var target: String
    /// The minor version of HTTP/1.x (0 or 1).
    var minorVersion: Int
    var headers: HTTPHeaders

    var version: String { "HTTP/1.\(minorVersion)" }

    /// Whether the client wants the connection kept open after the response.
    var wantsKeepAlive: Bool {
        let tokens = headers.tokens(for: .connection)
        if minorVersion == 0 {
            return tokens.contains("keep-alive")
        }
        return !tokens.contains("close")
    }

    /// Whether the client asked for `100 Continue` before sending the body.
    var expectsContinue: Bool {
        minorVersion >= 1 && headers.tokens(for: "Expect").contains("100-continue")
    }
}

/// A request body with its chunked framing removed: the bytes, the trailer fields and the chunk sizes (both empty
/// unless the body was chunked).
typealias RequestBody = (body: [UInt8], trailers: HTTPHeaders, chunkSizes: [Int])

/// How the body of a request is delimited.
enum RequestBodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
}

/// A request the server refuses: answered with `status` and closed.
struct HTTPRequestRejection: Error, Equatable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> HTTPRequestRejection {
        HTTPRequestRejection(status: 400, message: message)
    }

    static let headersTooLarge = HTTPRequestRejection(status: 431, message: "Request header section too large")
    static let bodyTooLarge = HTTPRequestRejection(status: 413, message: "Request body too large")
}

/// Why reading a request stopped.
enum HTTPRequestReadError: Error {
    /// The connection ended or the server is shutting down: close without answering.
    case connectionEnded
    /// The request is invalid or too large: answer with the rejection and close.
    case rejected(HTTPRequestRejection)
}

extension RecordedRequest {
    /// The record of a request read off a connection: its head and its de-framed body.
    init(
        head: HTTPRequestHead,
        body: RequestBody,
        sequenceNumber: Int,
        connectionIndex: Int
    ) {
        self.init(
            method: head.method,
            target: head.target,
            version: head.version,
            headers: head.headers,
            trailers: body.trailers,
            body: Data(body.body),
            chunkSizes: body.chunkSizes,
            sequenceNumber: sequenceNumber,
            connectionIndex: connectionIndex
        )
    }
}
