import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation

/// The network failure kind of `error`, or `nil` for other errors.
func failureKind(of error: APIClientError) -> APIClientError.NetworkFailure.Kind? {
    if case .networkError(let failure) = error { return failure.kind }
    return nil
}

/// Sends `request` and returns the error it fails with, or `nil` when it succeeds.
func failure(of request: HTTPRequest, with client: any HTTPClient) async -> APIClientError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}

/// A client whose configuration `change` adjusts. Its idle timeout (5 s) is scaled by `BOTHAM_TEST_TIME_SCALE`: under
/// TSan, with a whole test target starting at once, a mock server can be kept from the CPU for longer than 5 s.
func makeClient(_ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }) -> NativeHTTPClient {
    var configuration = NativeHTTPClient.Configuration()
    configuration.limits.idleTimeout = TestTimeScale.scaled(.seconds(5))
    change(&configuration)
    return NativeHTTPClient(configuration: configuration)
}

/// A `GET` for `path` on `server`.
func get(_ server: MockWebServer, _ path: String = "/", headers: HTTPHeaders = [:]) -> HTTPRequest {
    HTTPRequest(method: .get, baseEndpoint: server.baseURL.absoluteString, path: path, headers: headers)
}

/// Seconds elapsed since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A server that never answers, and a stream that yields each time a request reaches it (so a test can cancel a
/// call that is known to be waiting on the server).
func hangingServer() throws -> (MockWebServer, AsyncStream<Void>) {
    let (arrivals, arrived) = AsyncStream<Void>.makeStream()
    let server = try makeServer { _ in
        arrived.yield()
        return .hang
    }
    return (server, arrivals)
}
