import BothamHTTP2Wire
import BothamNetworking

extension HTTP2RequestFields {
    /// The fields of an extended CONNECT (RFC 8441 §4) for the request `head` describes: `:method` `CONNECT` and
    /// `:protocol` `connectProtocol` with the request's `:scheme`, `:authority` and `:path`, then its fields without
    /// those only an HTTP/1.1 upgrade has (`Upgrade`, `Connection`, `Sec-WebSocket-Key`, RFC 8441 §5).
    static func extendedConnect(
        _ head: RequestHead, protocol connectProtocol: String, neverIndexed: (HTTPFieldName) -> Bool
    ) -> [HPACKHeaderField] {
        var fields = make(head, neverIndexed: neverIndexed)
        fields.removeAll { $0.name == secWebSocketKey || $0.name == contentLength }
        if let method = fields.firstIndex(where: { $0.name == methodName }) {
            fields[method] = HPACKHeaderField(name: ":method", value: "CONNECT")
            fields.insert(HPACKHeaderField(name: ":protocol", value: connectProtocol), at: method + 1)
        }
        return fields
    }

    private static let methodName = Array(":method".utf8)
    private static let secWebSocketKey = Array("sec-websocket-key".utf8)
    private static let contentLength = Array("content-length".utf8)
}
