import BothamNetworking

/// An opt-in report of the declared endpoints a test suite never sent: register a service's endpoints, let the stub
/// clients of the tests record what they receive, then ask which were never hit.
///
/// ```swift
/// let coverage = EndpointCoverage()
/// coverage.register(TodosAPI.list())
/// coverage.register(TodosAPI.delete(id: 1))
/// coverage.register("GET /todos/{id}", matching: .method(.get) && RequestMatcher("todo path") {
///     $0.path.hasPrefix("/todos/")
/// })
///
/// let stubClient = StubHTTPClient()
/// stubClient.trackCoverage(in: coverage)     // every stub client of the suite can share one coverage
/// // … the tests …
/// #expect(coverage.unhitEndpoints.isEmpty, "\(coverage)")
/// ```
///
/// A request counts for every declaration that matches it (a concrete endpoint and a pattern alike); requests no
/// declaration matches are not counted. Safe to share between concurrent tests.
public final class EndpointCoverage: Sendable, CustomStringConvertible {
    private struct Declaration {
        let name: String
        let matcher: RequestMatcher
        var hits = 0
    }

    private let declarations = Lock<[Declaration]>([])

    /// Creates a coverage with no endpoints declared.
    public init() {}

    /// Declares `endpoint`, matched as ``RequestMatcher/endpoint(_:)`` matches it, under `name` (by default its
    /// method, path and fixed query: `GET /todos?userId=1`).
    public func register<Convertible: EndpointConvertible>(_ endpoint: Convertible, as name: String? = nil) {
        let declared = endpoint.endpoint
        let route = (try? EndpointRoute(declared))?.description ?? "\(declared.method) \(declared.path)"
        register(name ?? route, matching: .endpoint(declared))
    }

    /// Declares an endpoint named `name`, hit by the requests `matcher` accepts (for path patterns).
    public func register(_ name: String, matching matcher: RequestMatcher) {
        declarations.withLock { $0.append(Declaration(name: name, matcher: matcher)) }
    }

    /// Counts `request` for every declaration that matches it.
    func record(_ request: HTTPRequest) {
        declarations.withLock { declarations in
            for index in declarations.indices where declarations[index].matcher.matches(request) {
                declarations[index].hits += 1
            }
        }
    }

    /// The names of the declared endpoints no request has hit yet, in the order they were declared.
    public var unhitEndpoints: [String] {
        declarations.withLock { $0.filter { $0.hits == 0 }.map(\.name) }
    }

    /// The names of every declared endpoint, in the order they were declared.
    package var declaredEndpoints: [String] {
        declarations.withLock { $0.map(\.name) }
    }

    /// How many requests hit the endpoints declared as `name`.
    package func hits(of name: String) -> Int {
        declarations.withLock { $0.filter { $0.name == name }.reduce(0) { $0 + $1.hits } }
    }

    /// `2 of 3 declared endpoints hit; never hit:` and the list.
    public var description: String {
        let (declared, unhit) = declarations.withLock { ($0.count, $0.filter { $0.hits == 0 }.map(\.name)) }
        let summary = "\(declared - unhit.count) of \(declared) declared endpoints hit"
        return unhit.isEmpty ? summary : summary + "; never hit:\n" + unhit.map { "  - \($0)" }.joined(separator: "\n")
    }
}
