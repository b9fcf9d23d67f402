/// Encodes a Botham dictionary body as `application/x-www-form-urlencoded`.
enum FormEncoding {
    /// Scalars become `name=value`; arrays of scalars repeat the name; `null` is an empty value. Nested objects
    /// cannot be expressed in a flat form and are an error.
    static func encode(_ value: JSONValue) throws(APIClientError) -> String {
        guard case .object(let members) = value else {
            throw .invalidRequest(reason: "a form body must be a dictionary")
        }
        var parameters = HTTPParameters()
        for member in members {
            switch member.value {
            case .array(let elements):
                for element in elements { parameters.append(member.key, try scalar(element, name: member.key)) }
            default:
                parameters.append(member.key, try scalar(member.value, name: member.key))
            }
        }
        return parameters.percentEncoded
    }

    private static func scalar(_ value: JSONValue, name: String) throws(APIClientError) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            guard number.isFinite else { throw .invalidRequest(reason: "form field \(name) is \(number)") }
            return String(number)
        case .string(let text): return text
        case .array, .object:
            throw .invalidRequest(reason: "form field \(DebugText.quoted(name)) is nested, which a form cannot express")
        }
    }
}
