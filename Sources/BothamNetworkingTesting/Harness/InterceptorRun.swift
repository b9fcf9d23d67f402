import BothamNetworking
import Foundation

/// What one interceptor did in an ``InterceptorHarness`` run: what it returned (or threw), the requests it sent on
/// to the scripted `next`, and, for response interceptors and retriers, its decision on each attempt.
public struct InterceptorRun<Output: Sendable>: Sendable {
    /// What the run ended with: the interceptor's output, or the error it threw (or let through from `next`).
    public let result: Result<Output, any Error>
    /// The requests that reached the scripted `next`, in order.
    public let sentRequests: [HTTPRequest]
    /// The decisions of a response interceptor, one per attempt (empty for other kinds).
    public let decisions: [ResponseInterceptorResult]
    /// The waits a retrier asked for between attempts (empty for other kinds).
    public let retryDelays: [Duration]

    /// How many times `next` was called.
    package var nextCallCount: Int { sentRequests.count }

    /// The output, or the error the run ended with.
    public func get() throws -> Output {
        try result.get()
    }

    /// The error the run ended with, or `nil` when it returned.
    package var error: (any Error)? {
        guard case .failure(let error) = result else { return nil }
        return error
    }
}

extension ResponseInterceptorResult {
    /// Whether this is `retry`.
    public var isRetry: Bool {
        if case .retry = self { return true }
        return false
    }

    /// The response of a `proceed(_:)`, or `nil`.
    package var proceededResponse: HTTPResponse? {
        if case .proceed(let response) = self { return response }
        return nil
    }
}
