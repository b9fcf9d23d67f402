import Foundation

extension JSONValue {
    /// The value serialised as compact UTF-8 JSON, object members in order.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` for NaN or an infinity, which JSON cannot express.
    package func encoded() throws(APIClientError) -> Data {
        var output = ""
        try write(into: &output)
        return Data(output.utf8)
    }

    /// The value read from JSON bytes, or `nil` when they are not valid JSON.
    package init?(jsonData: Data) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: jsonData) else { return nil }
        self = value
    }

    private func write(into output: inout String) throws(APIClientError) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            guard value.isFinite else {
                throw .invalidRequest(reason: "JSON body contains \(value), which JSON cannot represent")
            }
            if value == value.rounded(), abs(value) < 1e15 {
                output += String(Int(value))
            } else {
                output += "\(value)"
            }
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                try value.write(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, into: &output)
                output += ":"
                try member.value.write(into: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ value: String, into output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON (NaN and infinities, which JSON cannot hold, are written as Swift prints them).
    public var description: String {
        if let data = try? encoded() { return String(decoding: data, as: UTF8.self) }
        switch self {
        case .double(let value): return "\(value)"
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.map { "\(JSONValue.string($0.key).description):\($0.value.description)" }
                .joined(separator: ",") + "}"
        default: return "null"
        }
    }
}
