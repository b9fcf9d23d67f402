/// The header value grammars of the opening handshake (RFC 6455 §4.3, RFC 9110 §5.6): comma-separated lists of
/// tokens, and extension elements with `;`-separated parameters whose values may be quoted strings.
enum WebSocketHeaderSyntax {
    /// One element of `Sec-WebSocket-Extensions`: its name and parameters, names lowercased, values unquoted.
    struct ExtensionElement: Equatable {
        var name: String
        var parameters: [(String, String?)]

        static func == (lhs: ExtensionElement, rhs: ExtensionElement) -> Bool {
            lhs.name == rhs.name && lhs.parameters.elementsEqual(rhs.parameters, by: { $0 == $1 })
        }
    }

    /// The non-empty, trimmed elements of comma-separated list values (commas inside quoted strings kept).
    static func listElements(_ values: [String]) -> [String] {
        values.flatMap { value in split(value, at: UInt8(ascii: ",")).map(trim).filter { !$0.isEmpty } }
    }

    /// The extension elements of `Sec-WebSocket-Extensions` values; an element with a malformed parameter is
    /// returned with the parameter name `""`, so whoever reads it refuses it.
    static func extensionElements(_ values: [String]) -> [ExtensionElement] {
        listElements(values).map { element in
            let parts = split(element, at: UInt8(ascii: ";"))
            let name = trim(parts.first ?? "").lowercased()
            var parameters: [(String, String?)] = []
            for part in parts.dropFirst() {
                let text = trim(part)
                guard let equals = text.firstIndex(of: "=") else {
                    parameters.append((isToken(text) ? text.lowercased() : "", nil))
                    continue
                }
                let key = trim(String(text[..<equals]))
                var value = trim(String(text[text.index(after: equals)...]))
                if value.hasPrefix("\"") {
                    guard let unquoted = unquote(value) else {
                        parameters.append(("", nil))
                        continue
                    }
                    value = unquoted
                }
                parameters.append((isToken(key) && isToken(value) ? key.lowercased() : "", value))
            }
            return ExtensionElement(name: isToken(name) ? name : "", parameters: parameters)
        }
    }

    /// Whether `text` is an RFC 9110 token (one or more tchars).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trim(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let start = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let end = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }

    /// `text` split at each `separator` outside quoted strings (always at least one part).
    private static func split(_ text: String, at separator: UInt8) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var inQuotes = false
        var escaped = false
        for byte in text.utf8 {
            if inQuotes {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                }
                current.append(byte)
            } else if byte == separator {
                parts.append(String(decoding: current, as: UTF8.self))
                current = []
            } else {
                if byte == UInt8(ascii: "\"") { inQuotes = true }
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// The content of a quoted string that is the whole of `text`, escapes resolved; nil when malformed.
    private static func unquote(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
        var result: [UInt8] = []
        var escaped = false
        for byte in bytes[1..<(bytes.count - 1)] {
            if escaped {
                result.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return nil
            } else {
                result.append(byte)
            }
        }
        return escaped ? nil : String(decoding: result, as: UTF8.self)
    }
}
