import BothamHTTP2Wire

/// A response's field section, checked as RFC 9113 says a client must (§8.1.1, §8.2, §8.3.2): what does not pass
/// makes the response malformed, a stream error of type PROTOCOL_ERROR.
struct HTTP2ResponseFields: Hashable, Sendable {
    /// `:status` (`nil` in trailers).
    var status: Int?
    /// The regular fields, in order.
    var fields: [HPACKHeaderField]
    /// The `content-length`, when there is one.
    var contentLength: Int?

    /// Fields that only HTTP/1.1 connections have: a response carrying one is malformed (§8.2.2).
    private static let connectionSpecific = HPACKNameSet(utf8: [
        "connection", "proxy-connection", "keep-alive", "transfer-encoding", "upgrade",
    ])
    private static let statusName = Array(":status".utf8)
    private static let contentLengthName = Array("content-length".utf8)

    /// Checks `list`, a response head (`trailers` false: `:status` required) or trailers (no pseudo-field
    /// allowed); the reason it is malformed otherwise.
    static func parse(_ list: [HPACKHeaderField], trailers: Bool) -> Result<HTTP2ResponseFields, Malformed> {
        var parsed = HTTP2ResponseFields(status: nil, fields: [], contentLength: nil)
        parsed.fields.reserveCapacity(list.count)
        for field in list {
            if field.name.first == UInt8(ascii: ":") {
                guard !trailers else { return .failure(Malformed("a pseudo-field in trailers")) }
                guard parsed.fields.isEmpty else { return .failure(Malformed("a pseudo-field after a regular field")) }
                guard field.name == statusName else { return .failure(Malformed("the pseudo-field \(field)")) }
                guard parsed.status == nil else { return .failure(Malformed("two :status fields")) }
                guard field.value.count == 3, field.value.allSatisfy({ (0x30...0x39).contains($0) }),
                    let status = Int(String(decoding: field.value, as: UTF8.self)), status >= 100
                else { return .failure(Malformed("the status \(field)")) }
                parsed.status = status
                continue
            }
            if let problem = problem(with: field) { return .failure(Malformed(problem)) }
            if field.name == contentLengthName {
                guard !field.value.isEmpty, field.value.count <= 18,
                    field.value.allSatisfy({ (0x30...0x39).contains($0) }),
                    let length = Int(String(decoding: field.value, as: UTF8.self)),
                    parsed.contentLength == nil || parsed.contentLength == length
                else { return .failure(Malformed("the content-length \(field)")) }
                parsed.contentLength = length
            }
            parsed.fields.append(field)
        }
        if !trailers, parsed.status == nil { return .failure(Malformed("no :status")) }
        return .success(parsed)
    }

    /// What is wrong with a regular field, or `nil`: a name that is empty, has uppercase or characters outside
    /// visible ASCII, or is connection-specific; a value with NUL, CR or LF, or with whitespace at either end.
    private static func problem(with field: HPACKHeaderField) -> String? {
        guard !field.name.isEmpty,
            field.name.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !(0x41...0x5A).contains($0) && $0 != UInt8(ascii: ":") })
        else { return "the field name in \(field)" }
        if connectionSpecific.contains(field.name) { return "the connection-specific field \(field)" }
        if field.value.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) { return "the field value in \(field)" }
        if let first = field.value.first, first == 0x20 || first == 0x09 { return "leading whitespace in \(field)" }
        if let last = field.value.last, last == 0x20 || last == 0x09 { return "trailing whitespace in \(field)" }
        return nil
    }

    /// Why a field section is malformed.
    struct Malformed: Error, Hashable, Sendable {
        let reason: String

        init(_ reason: String) {
            self.reason = reason
        }
    }
}
