import BothamNetworking
import BothamTestSupport
import Foundation

/// Counts the requests to `host` and marks them with `header`; leaves every other request alone.
struct CountingRequestInterceptor: BothamRequestInterceptor {
    let host: String
    let header: HTTPFieldName
    let counter: Counter

    func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        guard request.url?.host == host else { return request }
        counter.increment()
        return request.withHeader(header, "yes")
    }
}

/// Counts the responses and errors of calls to `host` and passes them on unchanged.
struct CountingResponseInterceptor: BothamResponseInterceptor {
    let host: String
    let counter: Counter

    func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        if request.url?.host == host { counter.increment() }
        return .proceed(response)
    }

    func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        if request.url?.host == host { counter.increment() }
        return .fail(error)
    }
}

/// Counts the attempts to `host` passing through the onion and forwards them unchanged.
struct CountingOnionInterceptor: HTTPInterceptor {
    let host: String
    let counter: Counter

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        if request.url?.host == host { counter.increment() }
        return try await next(request)
    }
}

/// The error the stress test's failing stub injects.
struct InjectedFailure: Error, Equatable {}
