import BothamHTTP2Wire
import BothamNetworking
import Foundation

/// A request arriving on one stream: its fields, then its DATA, then perhaps trailers (RFC 9113 §8.1).
struct HTTP2IncomingRequest {
    var fields: [HPACKHeaderField]
    var body: [UInt8] = []
    var trailers: [HPACKHeaderField] = []
    /// DATA octets received since the stream's window was last granted back.
    var unacknowledgedBytes = 0

    /// Why a request's fields make it malformed (RFC 9113 §8.3.1): answered with RST_STREAM PROTOCOL_ERROR.
    struct Malformed: Error {}

    /// The record of the request: `:path` as the target, `HTTP/2` as the version, the fields in order under the
    /// names sent (lower case) with `Host` first from `:authority` (as RFC 9113 §8.3.1 says an HTTP/1.1 view must
    /// have it), and `cookie` fields joined with `; ` (§8.2.3).
    func record(sequenceNumber: Int, connectionIndex: Int) throws(Malformed) -> RecordedRequest {
        var method: String?
        var path: String?
        var authority: String?
        var headers = HTTPHeaders()
        var cookies: [String] = []
        for field in fields {
            let name = String(decoding: field.name, as: UTF8.self)
            let value = String(decoding: field.value, as: UTF8.self)
            switch name {
            case ":method": method = value
            case ":path": path = value
            case ":authority": authority = value
            case ":scheme": continue
            case "cookie": cookies.append(value)
            default:
                guard !name.hasPrefix(":") else { throw Malformed() }
                headers.add(HTTPFieldName(name), value)
            }
        }
        guard let method, let path, !path.isEmpty else { throw Malformed() }
        if !cookies.isEmpty { headers.add("cookie", cookies.joined(separator: "; ")) }
        if let authority, !headers.contains(.host) {
            headers = HTTPHeaders([HTTPHeaders.Field(name: .host, value: authority)] + headers.fields)
        }
        var trailerFields = HTTPHeaders()
        for field in trailers {
            trailerFields.add(
                HTTPFieldName(String(decoding: field.name, as: UTF8.self)), String(decoding: field.value, as: UTF8.self)
            )
        }
        return RecordedRequest(
            method: HTTPMethod(method), target: path, version: "HTTP/2", headers: headers, trailers: trailerFields,
            body: Data(body), chunkSizes: [], sequenceNumber: sequenceNumber, connectionIndex: connectionIndex)
    }
}
