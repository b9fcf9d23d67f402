import BothamNetworking

/// Builds a ``JSONValue`` from fuzz bytes with a small deterministic grammar: one byte picks the kind, then the
/// kind reads what it needs. Depth and width are bounded so every input stays cheap.
public enum JSONValueGenerator {
    /// The value `input` describes, at most `depth` levels deep.
    public static func value(from input: inout FuzzInput, depth: Int = 4) -> JSONValue {
        let kind = input.choice(depth > 0 ? 8 : 6)
        switch kind {
        case 0: return .null
        case 1: return .bool(input.byte() & 1 == 1)
        case 2: return .int(Int(truncatingIfNeeded: input.word()))
        case 3: return .double(Double(bitPattern: input.word()))
        case 4: return .double(Double(Int8(bitPattern: input.byte())) / 4)
        case 5: return .string(input.string(maxLength: 24))
        case 6:
            let count = input.choice(5)
            return .array((0..<count).map { _ in value(from: &input, depth: depth - 1) })
        default:
            return object(from: &input, depth: depth - 1)
        }
    }

    /// An object whose member count and keys come from `input`.
    public static func object(from input: inout FuzzInput, depth: Int = 4) -> JSONValue {
        let count = input.choice(5)
        var members: [(key: String, value: JSONValue)] = []
        for _ in 0..<count {
            let key = input.string(maxLength: 12)
            members.append((key: key, value: value(from: &input, depth: depth)))
        }
        return .object(members)
    }

    /// Whether `value` holds a NaN or an infinity anywhere.
    public static func containsNonFiniteNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let number): return !number.isFinite
        case .array(let elements): return elements.contains(where: containsNonFiniteNumber)
        case .object(let members): return members.contains { containsNonFiniteNumber($0.value) }
        case .null, .bool, .int, .string: return false
        }
    }
}
