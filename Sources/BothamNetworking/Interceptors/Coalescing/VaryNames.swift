/// The request header fields a response says it varies on (its `Vary` fields, RFC 9110 §12.5.5): named fields, or
/// `*` (anything about the request may have chosen it).
enum VaryNames: Sendable, Equatable {
    /// `Vary: *`: no other request can be assumed to get the same answer.
    case any
    /// The named fields (valid names only, each once).
    case fields([HTTPFieldName])

    /// The names `response` varies on, or `nil` when it has no `Vary` field (or only empty or invalid ones).
    init?(of response: HTTPResponse) {
        var names: [HTTPFieldName] = []
        for value in response.headers.values(for: Self.vary) {
            for element in HTTPFieldList.elements(of: value) {
                if element == "*" {
                    self = .any
                    return
                }
                let name = HTTPFieldName(element)
                if name.isValid, !names.contains(name) { names.append(name) }
            }
        }
        guard !names.isEmpty else { return nil }
        self = .fields(names)
    }

    /// Whether `request` and `other` agree on every field named here (each field's values, in order); never for
    /// ``any``.
    func match(_ request: HTTPRequest, _ other: HTTPRequest) -> Bool {
        guard case .fields(let names) = self else { return false }
        return names.allSatisfy { request.headers.values(for: $0) == other.headers.values(for: $0) }
    }

    /// The `Vary` field name.
    static let vary = HTTPFieldName("Vary")
}
