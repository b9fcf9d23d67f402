import Foundation

/// A media type (RFC 9110 §8.3.1) read from a `Content-Type` value: its essence `type/subtype` and its parameters,
/// read by ``FieldParameters`` (so `charset="utf-8"` and `boundary="a;b"` are understood). Matching ignores case
/// and parameters: `Application/JSON; charset=utf-8` is `application/json`.
///
/// The one media-type type of the library: request bodies choose their encoding by it, validation, logging and
/// `EventSource` match by it, text responses find their charset with it, and multipart file parts guess theirs
/// from a file extension (`MediaType+PathExtension.swift`).
struct MediaType: Sendable, Hashable {
    static let json = "application/json"
    static let form = "application/x-www-form-urlencoded"
    static let octetStream = "application/octet-stream"

    /// `type/subtype` in lower case, without parameters.
    let essence: String
    /// The parameters, in order.
    let parameters: [FieldParameters.Parameter]

    /// The media type of a `Content-Type` value.
    init(_ contentType: String) {
        let (head, parameters) = FieldParameters.parse(contentType)
        essence = head.trimmingCharacters(in: .whitespaces).lowercased()
        self.parameters = parameters
    }

    /// The first non-empty value of the parameter `name` (ignoring case), or `nil`.
    func parameter(_ name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name && !$0.value.isEmpty }?.value
    }

    /// `type/subtype` in lower case, without parameters: `"Application/JSON; charset=utf-8"` → `"application/json"`.
    /// Cheaper than ``init(_:)`` when the parameters do not matter (the essence holds no quotes).
    static func essence(_ contentType: String) -> String {
        let head = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether an essence is JSON: `application/json` or a `+json` suffix type.
    static func isJSON(_ essence: String) -> Bool {
        essence == json || essence.hasSuffix("+json")
    }

    /// Whether an essence matches a pattern such as `application/json`, `application/*` or `*/*` (both lower-cased).
    static func essence(_ essence: String, matches pattern: String) -> Bool {
        if pattern == "*/*" || pattern == "*" { return true }
        let parts = essence.split(separator: "/", maxSplits: 1)
        let wanted = pattern.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, wanted.count == 2 else { return false }
        return (wanted[0] == "*" || wanted[0] == parts[0]) && (wanted[1] == "*" || wanted[1] == parts[1])
    }
}
