/// Media type helpers: matching ignores case and parameters such as `; charset=utf-8`.
enum MediaType {
    static let json = "application/json"
    static let form = "application/x-www-form-urlencoded"

    /// `type/subtype` in lower case, without parameters: `"Application/JSON; charset=utf-8"` → `"application/json"`.
    static func essence(_ contentType: String) -> String {
        let head = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether an essence is JSON: `application/json` or a `+json` suffix type.
    static func isJSON(_ essence: String) -> Bool {
        essence == json || essence.hasSuffix("+json")
    }
}
