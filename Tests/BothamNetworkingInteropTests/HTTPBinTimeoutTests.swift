import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: timeouts and cancellation", .timeLimit(.minutes(1)))
    struct HTTPBinTimeoutTests {
        @Test("a 0.5 s timeout against /delay/3 fires between 0.4 s and 1.5 s")
        func subSecondTimeout() async throws {
            let apiClient = HTTPBin.client()
            let request = apiClient.request(.get, "/delay/3").withTimeout(.milliseconds(500))
            let (result, duration) = await elapsed { await apiClient.send(request) }
            guard case .failure(.timeout) = result else {
                Issue.record("expected .timeout, got \(result)")
                return
            }
            #expect(duration >= .milliseconds(400))
            #expect(duration < .milliseconds(1500))
        }

        @Test("maxAttemptTimeout caps a request without its own timeout")
        func maxAttemptTimeout() async throws {
            let apiClient = HTTPBin.client(.init(limits: .init(maxAttemptTimeout: .milliseconds(500))))
            let (result, duration) = await elapsed { await apiClient.GET("/delay/3") }
            guard case .failure(.timeout) = result else {
                Issue.record("expected .timeout, got \(result)")
                return
            }
            #expect(duration < .milliseconds(1500))
        }

        @Test("a response within the timeout is not affected by it")
        func withinTimeout() async throws {
            let apiClient = HTTPBin.client()
            let request = apiClient.request(.get, "/delay/1").withTimeout(.seconds(5))
            #expect(try await apiClient.send(request).get().statusCode == 200)
        }

        @Test("cancelling the calling task ends the call promptly with .cancelled")
        func cancellation() async throws {
            let apiClient = HTTPBin.client()
            let started = AsyncStream<Void>.makeStream()
            _ = apiClient.interceptors.append(SignalInterceptor(signal: started.continuation))
            let call = Task { await elapsed { await apiClient.GET("/delay/3") } }
            var iterator = started.stream.makeAsyncIterator()
            await iterator.next()
            call.cancel()
            let (result, duration) = await awaitingCancellably(call)
            guard case .failure(.cancelled) = result else {
                Issue.record("expected .cancelled, got \(result)")
                return
            }
            #expect(duration < .milliseconds(1500))
        }
    }
}

/// Signals when a call reaches the transport.
struct SignalInterceptor: HTTPInterceptor {
    let signal: AsyncStream<Void>.Continuation

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        signal.yield()
        return try await next(request)
    }
}
