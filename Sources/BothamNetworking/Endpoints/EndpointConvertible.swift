/// A value that describes an ``Endpoint``: write one type per operation, or an enum router whose cases share a
/// response type, and send it with `apiClient.send(_:)` or `apiClient.value(for:)`.
///
/// ```swift
/// struct ListIssues: EndpointConvertible {
///     var state = "open"
///     var labels: [String] = []
///     var endpoint: Endpoint<[Issue]> {
///         Endpoint(.get, "/issues", parameters: ["state": .string(state), "labels": .string(labels.joined(separator: ","))])
///     }
/// }
/// let issues = try await apiClient.value(for: ListIssues(labels: ["bug"]))
/// ```
public protocol EndpointConvertible: Sendable {
    /// The type of the answer.
    associatedtype Response: Sendable

    /// The endpoint to send.
    var endpoint: Endpoint<Response> { get }
}

extension Endpoint: EndpointConvertible {
    /// The endpoint itself.
    public var endpoint: Endpoint<Response> { self }
}
