import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation

/// Clients and recorders for the chaos interceptor tests.
enum ChaosTest {
    /// A client over `stubClient` with `chaos` as its network interceptor, retrying nothing.
    static func client(
        _ chaos: ChaosInterceptor, _ stubClient: StubHTTPClient, configuration: BothamAPIClient.Configuration = .init()
    ) -> BothamAPIClient {
        let apiClient = BothamAPIClient(
            baseEndpoint: "https://staging.example.com", httpClient: stubClient, configuration: configuration)
        apiClient.networkInterceptors.append(chaos)
        return apiClient
    }

    /// The underlying error of a network failure, when `result` is one.
    static func networkFailure(_ result: Result<HTTPResponse, APIClientError>) -> APIClientError.NetworkFailure? {
        guard case .failure(.networkError(let failure)) = result else { return nil }
        return failure
    }

    /// The status of the response `result` ended with, accepted or not; `nil` for any other failure.
    static func statusCode(_ result: Result<HTTPResponse, APIClientError>) -> Int? {
        switch result {
        case .success(let response), .failure(.httpResponseError(let response)): return response.statusCode
        case .failure: return nil
        }
    }

    /// Whether `result` is ``APIClientError/timeout``.
    static func isTimeout(_ result: Result<HTTPResponse, APIClientError>) -> Bool {
        if case .failure(.timeout) = result { return true }
        return false
    }

    /// Whether `result` is ``APIClientError/cancelled``.
    static func isCancelled(_ result: Result<HTTPResponse, APIClientError>) -> Bool {
        if case .failure(.cancelled) = result { return true }
        return false
    }

    /// `body`'s value and how long it took.
    static func elapsed<T>(_ body: () async -> T) async -> (T, Duration) {
        let start = ContinuousClock.now
        let value = await body()
        return (value, ContinuousClock.now - start)
    }

    /// The fault `failure` says it was injected by, or `nil` for a failure the interceptor did not make.
    static func injectedFault(_ failure: APIClientError.NetworkFailure?) -> ChaosInterceptor.Fault? {
        failure?.underlying as? ChaosInterceptor.Fault
    }
}

/// Which fault each request got, by the request's path: what `onFault` heard.
final class FaultLog: Sendable {
    let entries = Recorder<(path: String, fault: ChaosInterceptor.Fault)>()

    var onFault: @Sendable (ChaosInterceptor.Fault, HTTPRequest) -> Void {
        { fault, request in self.entries.append((request.path, fault)) }
    }

    /// The fault of each of `paths`, `nil` for those that got none.
    func faults(of paths: [String]) -> [ChaosInterceptor.Fault?] {
        let heard = entries.values
        return paths.map { path in heard.first { $0.path == path }?.fault }
    }
}
