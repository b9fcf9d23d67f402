import BothamNetworking
import BothamNetworkingConformance
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import PlaygroundSupport

/// Rehearsing what production does to a client: typed stubs with a report of the endpoints no test sent, faults
/// injected on purpose, and a transport checked against every guarantee of a Botham transport.
public enum Rehearsals: PlaygroundPage {
    /// The page's name.
    public static let name = "Rehearsals"
    /// What the page shows.
    public static let summary = "typed stubs and endpoint coverage, ChaosInterceptor, the transport conformance suite"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        try await typedStubsAndCoverage(context)
        try await chaos(context)
        try await conformance(context)
    }

    /// Stubs answered with a value the endpoint's own encoding writes (no JSON by hand), and the endpoints no test
    /// sent, named.
    private static func typedStubsAndCoverage(_ context: PlaygroundContext) async throws {
        let coverage = EndpointCoverage()
        coverage.register(TodosAPI.list())
        coverage.register(TodosAPI.get(id: 1))
        coverage.register(TodosAPI.delete(id: 1))
        let stubClient = StubHTTPClient()
        stubClient.trackCoverage(in: coverage)
        let todo = Todo(userId: 1, id: 1, title: "Ship it", completed: false)
        try stubClient.stub(TodosAPI.get(id: 1), with: todo)
        try stubClient.stub(TodosAPI.list(), with: [todo])
        let apiClient = BothamAPIClient(baseEndpoint: "https://todos.example.com", httpClient: stubClient)

        let fetched = try await apiClient.value(for: TodosAPI.get(id: 1))
        try context.check(fetched == todo, "a typed stub answered with the value, encoded as the endpoint decodes it")
        let listed = try await apiClient.value(for: TodosAPI.list())
        try context.check(listed == [todo], "and the list endpoint with an array of it")
        context.say("\(coverage)")
        try context.check(
            coverage.unhitEndpoints == ["DELETE /todos/1"], "the coverage names the one endpoint no call sent")
    }

    /// Faults injected where the transport would meet them: two retried away, then a body cut in half.
    private static func chaos(_ context: PlaygroundContext) async throws {
        let retrying = BothamAPIClient(
            baseEndpoint: context.servicesURL, httpClient: URLSessionHTTPClient(),
            configuration: .init(
                maxRetries: 2,
                retrier: RetryPolicy(backoff: RetryPolicy.Backoff(baseDelay: .milliseconds(10)), jitter: .none))
        )
        let faults = Lock<[String]>([])
        retrying.networkInterceptors.append(
            ChaosInterceptor(
                .script([.fail(.connectionLost), .status(503)]),
                onFault: { fault, request in
                    faults.withLock { $0.append("\(fault) on \(request.method) \(request.path)") }
                }))
        let todos = try await retrying.GET("/todos").get()
        context.say("injected: \(faults.withLock { $0 })")
        try context.check(
            todos.statusCode == 200 && faults.withLock { $0.count } == 2,
            "a lost connection and a 503, both injected, both retried: the third attempt reached the server")

        let plain = BothamAPIClient(
            baseEndpoint: context.servicesURL, httpClient: URLSessionHTTPClient(), configuration: .init(maxRetries: 0))
        plain.networkInterceptors.append(ChaosInterceptor(.script([.truncateBody])))
        guard case .failure(.networkError(let failure)) = await plain.GET("/todos") else {
            throw PlaygroundFailure("a truncated body must end the call with a network error")
        }
        try context.check(
            failure.kind == .connectionLost && failure.underlying is ChaosInterceptor.Fault,
            "a body cut in half fails as a real dropped connection does, and says it was rehearsal")
    }

    /// One area of the conformance suite, run against `NativeHTTPClient` (the whole suite takes some seconds more).
    private static func conformance(_ context: PlaygroundContext) async throws {
        let suite = TransportConformance { configuration in
            var native = NativeHTTPClient.Configuration()
            native.redirectPolicy = configuration.redirectPolicy
            native.limits = configuration.limits
            return NativeHTTPClient(configuration: native)
        }
        let report = await suite.run(only: TransportConformance.checks(in: .redirects))
        context.say("\(report)")
        try context.check(
            report.conforms && !report.passed.isEmpty,
            "NativeHTTPClient passes every redirect check of the suite a transport of yours can run")
    }
}
