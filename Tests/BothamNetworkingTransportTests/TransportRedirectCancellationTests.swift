import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports against MockWebServer: cancellation while a redirect is followed", .timeLimit(.minutes(1)))
    struct TransportRedirectCancellationTests {
        /// How long a cancelled call may take to come back once its task is cancelled.
        static let cancellationBound = Duration.seconds(1)

        /// Cancels `call` (hanging on its redirect's target), expects `.cancelled` within the bound, then a next call
        /// on the same client that works.
        static func expectCancelledAtOnce(
            _ call: Task<Result<HTTPResponse, APIClientError>, Never>, thenServedBy apiClient: BothamAPIClient
        ) async {
            let (result, duration) = await TransportTest.elapsed {
                call.cancel()
                return await awaitingCancellably(call)
            }
            #expect(result.isCancelled, "\(result)")
            #expect(duration < TestTimeScale.scaled(cancellationBound, during: duration), "took \(duration)")
            let after = await apiClient.GET("/after")
            #expect((try? after.get().body) == Data("after".utf8), "\(after)")
        }

        private func redirect(_ status: Int, to url: URL) -> MockResponse {
            MockResponse(statusCode: status).withHeader("Location", url.absoluteString)
        }

        @Test(
            "cancelling while the redirect's target hangs ends with .cancelled at once, and the client works after",
            arguments: TransportUnderTest.allCases, [302, 307])
        func cancelWhileTargetHangs(transport: TransportUnderTest, status: Int) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [
                redirect(status, to: server.url("/target")), MockResponse().withSocketPolicy(.noResponse),
                MockResponse().withBody("after"),
            ])
            let apiClient = TransportTest.client(transport, server)

            let call = Task { await apiClient.PUT("/start", body: .text("payload")) }
            #expect(try await server.takeRequest().path == "/start")
            #expect(try await server.takeRequest().path == "/target")
            await Self.expectCancelledAtOnce(call, thenServedBy: apiClient)
        }

        @Test(
            "cancelling while a cross-origin redirect's target hangs ends with .cancelled at once",
            arguments: TransportUnderTest.allCases)
        func cancelAcrossOrigins(transport: TransportUnderTest) async throws {
            let first = try MockWebServer()
            defer { first.shutdown() }
            let second = try MockWebServer()
            defer { second.shutdown() }
            first.enqueue(contentsOf: [redirect(302, to: second.url("/elsewhere")), MockResponse().withBody("after")])
            second.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let apiClient = TransportTest.client(transport, first)

            let call = Task { await apiClient.GET("/start", headers: ["Authorization": "Bearer secret"]) }
            _ = try await first.takeRequest()
            #expect(try await second.takeRequest().path == "/elsewhere")
            await Self.expectCancelledAtOnce(call, thenServedBy: apiClient)
        }

        @Test(
            "cancelling at any moment around the redirect decision never crashes or hangs",
            arguments: TransportUnderTest.allCases)
        func cancelAroundTheDecision(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDispatcher { request in
                request.path == "/start"
                    ? MockResponse(statusCode: 302).withHeader("Location", "/target")
                    : MockResponse().withHeadersDelay(.milliseconds(20)).withBody("target")
            }
            let apiClient = TransportTest.client(transport, server)

            // Cancelled after 0 to 3.9 ms: before the 302 is read, while the transport decides to follow it, while the
            // next hop is sent, or after the call is done.
            for step in 0..<40 {
                let call = Task { await apiClient.GET("/start") }
                try await Task.sleep(for: .microseconds(100 * step))
                let (result, duration) = await TransportTest.elapsed {
                    call.cancel()
                    return await awaitingCancellably(call)
                }
                switch result {
                case .failure(.cancelled): break
                case .success(let response): #expect(response.body == Data("target".utf8))
                case .failure(let error): Issue.record("step \(step): \(error)")
                }
                #expect(
                    duration < TestTimeScale.scaled(Self.cancellationBound, during: duration),
                    "step \(step) took \(duration)")
            }
            let after = await apiClient.GET("/start")
            #expect((try? after.get().body) == Data("target".utf8), "\(after)")
        }
    }
}
