/// The value of a response that has no body: what a `204 No Content`, a `205 Reset Content` or a `HEAD` response
/// decodes to.
///
/// ```swift
/// let deleted: Empty = try await apiClient.value(for: TodosAPI.delete(id: 1))
/// ```
public struct Empty: Codable, Sendable, Hashable {
    /// The empty value.
    public init() {}

    /// The empty value.
    package static let value = Empty()
}

extension Empty: EmptyResponse {
    /// An `Empty()` value.
    public static func emptyValue() -> Empty { .value }
}
