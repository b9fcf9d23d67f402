import Foundation

extension HTTPBody {
    /// The serialisation of a property list body.
    public enum PropertyListFormat: Sendable, Hashable {
        /// The XML format (the default).
        case xml
        /// The compact binary format (`bplist00`).
        case binary

        var foundationFormat: PropertyListSerialization.PropertyListFormat {
            switch self {
            case .xml: return .xml
            case .binary: return .binary
            }
        }

        /// The path of the first `null` in `value`, or `nil` when there is none.
        static func nullPath(in value: JSONValue, path: String) -> String? {
            switch value {
            case .null: return path
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    if let found = nullPath(in: element, path: "\(path)[\(index)]") { return found }
                }
                return nil
            case .object(let members):
                for member in members {
                    if let found = nullPath(in: member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)")
                    {
                        return found
                    }
                }
                return nil
            case .bool, .int, .double, .string: return nil
            }
        }
    }
}
