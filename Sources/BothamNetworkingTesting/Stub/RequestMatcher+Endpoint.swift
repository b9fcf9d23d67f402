import BothamNetworking

extension RequestMatcher {
    /// Matches the requests `endpoint` sends: its method, its path (compared as ``path(_:)`` compares it) and, when
    /// the endpoint fixes a query — in its path, or from parameters that go in the query — each of those query items
    /// with its value. Query items the endpoint does not fix (an API key an interceptor adds) do not matter, nor do
    /// header fields and bodies.
    ///
    /// ```swift
    /// stubClient.stub(.endpoint(TodosAPI.list(userId: 1)), with: .response(statusCode: 503))
    /// ```
    ///
    /// An endpoint whose parameters cannot be encoded matches nothing, and its description says why.
    public static func endpoint<Convertible: EndpointConvertible>(_ endpoint: Convertible) -> RequestMatcher {
        let endpoint = endpoint.endpoint
        do {
            let route = try EndpointRoute(endpoint)
            return RequestMatcher("endpoint \(route)") { route.matches($0) }
        } catch {
            let description = "endpoint \(endpoint.method.rawValue) \(endpoint.path) (cannot be encoded: \(error))"
            return RequestMatcher(description) { _ in false }
        }
    }
}
