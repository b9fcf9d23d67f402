import BothamHTTP2Wire
import BothamNetworking

/// A request head as HTTP/2 sends it (RFC 9113 §8.3.1): `:method`, `:scheme`, `:authority` and `:path`, then the
/// request's fields with lowercase names, without the fields only HTTP/1.1 connections have.
enum HTTP2RequestFields {
    /// Fields that describe an HTTP/1.1 connection and must not appear in HTTP/2 (§8.2.2); `host` becomes
    /// `:authority`, and `content-length` is ours to set from the body.
    private static let dropped: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "content-length",
    ]

    /// The fields for `head`; those `neverIndexed` says are sensitive are marked never-indexed.
    static func make(_ head: RequestHead, neverIndexed: (HTTPFieldName) -> Bool) -> [HPACKHeaderField] {
        let headers = head.headers
        // Fields the request's `Connection` names are hop-by-hop too.
        let named = Set(headers.values(for: .connection).flatMap(HTTPFieldList.elements(of:)).map { $0.lowercased() })
        var fields: [HPACKHeaderField] = []
        fields.reserveCapacity(headers.fields.count + 5)
        fields.append(HPACKHeaderField(name: ":method", value: head.method))
        fields.append(HPACKHeaderField(name: ":scheme", value: head.origin.wireScheme))
        fields.append(HPACKHeaderField(name: ":authority", value: headers[.host] ?? head.origin.hostHeader))
        fields.append(HPACKHeaderField(name: ":path", value: head.path))
        for field in headers.fields {
            let name = field.name.canonicalName
            if dropped.contains(name) || named.contains(name) { continue }
            // TE is allowed with `trailers` only (§8.2.2).
            if name == "te" && field.value.lowercased() != "trailers" { continue }
            fields.append(HPACKHeaderField(name: name, value: field.value, neverIndexed: neverIndexed(field.name)))
        }
        if let length = head.bodyLength {
            fields.append(HPACKHeaderField(name: "content-length", value: String(length)))
        } else if !head.chunked && (head.method == "POST" || head.method == "PUT" || head.method == "PATCH") {
            fields.append(HPACKHeaderField(name: "content-length", value: "0"))
        }
        return fields
    }

    /// The response fields as the client's ``BothamNetworking/HTTPHeaders`` (names as the server sent them, in
    /// lower case).
    static func headers(_ fields: [HPACKHeaderField]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for field in fields {
            headers.add(
                HTTPFieldName(String(decoding: field.name, as: UTF8.self)), String(decoding: field.value, as: UTF8.self)
            )
        }
        return headers
    }
}
