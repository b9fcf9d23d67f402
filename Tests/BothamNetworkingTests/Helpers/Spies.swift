import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation

/// A unique base endpoint per test, so global interceptors added by one test can act only on its own requests
/// while other tests run in parallel.
func uniqueEndpoint(_ function: String = #function) -> String {
    "https://\(UUID().uuidString.lowercased()).test.example/api"
}

/// Records its name (and adds a header) for requests to `host` only.
struct RecordingRequestInterceptor: BothamRequestInterceptor {
    let name: String
    let log: Recorder<String>
    let host: String?

    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        guard host == nil || request.url?.host == host else { return request }
        log.append("request:\(name)")
        return request.appendingHeaders([HTTPFieldName("X-Intercepted-\(name)"): "yes"])
    }
}

/// Records its name for responses to `host` only and passes them on.
struct RecordingResponseInterceptor: BothamResponseInterceptor {
    let name: String
    let log: Recorder<String>
    let host: String?

    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        if host == nil || request.url?.host == host { log.append("response:\(name)") }
        return .proceed(response)
    }
}

/// Returns `.retry` for the first `times` responses it sees, then passes them on.
final class RetryingResponseInterceptor: BothamResponseInterceptor {
    private let remaining: Lock<Int>
    let attempts = Recorder<Int>()

    init(times: Int) {
        remaining = Lock(times)
    }

    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        attempts.append(HTTPCallContext.current?.attempt ?? -1)
        let retry = remaining.withLock { remaining -> Bool in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
        return retry ? .retry : .proceed(response)
    }
}

struct TestFailure: Error, Equatable {
    let message: String
}

extension HTTPRequest {
    /// The body as UTF-8 text, for assertions.
    var bodyText: String? {
        (try? bodyData()).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    }
}
