import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports hand every redirect they follow to the call's RedirectHopObserver", .timeLimit(.minutes(1)))
    struct TransportRedirectHopObserverTests {
        /// Sends `GET /start` over a new `transport` with `observer` bound.
        private static func send(
            _ transport: TransportUnderTest, _ server: MockWebServer, observer: RedirectHopObserver
        ) async -> Result<HTTPResponse, APIClientError> {
            let httpClient = transport.make()
            let request = HTTPRequest(method: .get, url: server.url("/start"))
            return await RedirectHopObserver.$current.withValue(observer) {
                do throws(APIClientError) {
                    return .success(try await httpClient.send(request))
                } catch {
                    return .failure(error)
                }
            }
        }

        @Test(
            "each redirect is seen with its status, fields and URL, and a field the observer adds reaches the next hop",
            arguments: TransportUnderTest.allCases)
        func seesEveryHop(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [
                MockResponse(statusCode: 301).withHeader("Location", "/second"),
                MockResponse(statusCode: 307).withHeader("Location", "/third"),
                MockResponse().withBody("end"),
            ])
            let seen = Recorder<String>()
            let observer = RedirectHopObserver { redirect, nextURL, headers in
                seen.append("\(redirect.statusCode) \(redirect.url?.path ?? "?") → \(nextURL.path)")
                headers[HTTPFieldName("X-Hop")] = "\(redirect.statusCode)"
            }

            let response = try await Self.send(transport, server, observer: observer).get()

            #expect(response.body == Data("end".utf8))
            #expect(seen.values == ["301 /start → /second", "307 /second → /third"])
            #expect(try await server.takeRequest().header("X-Hop") == nil)
            #expect(try await server.takeRequest().header("X-Hop") == "301")
            #expect(try await server.takeRequest().header("X-Hop") == "307")
        }

        @Test(
            "a field the observer leaves unsendable ends the call with invalidRequest before the hop is sent",
            arguments: TransportUnderTest.allCases)
        func invalidFieldIsNotSent(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 302).withHeader("Location", "/next"))
            server.setDefaultResponse(MockResponse().withBody("must not be asked for"))
            let observer = RedirectHopObserver { _, _, headers in
                headers[HTTPFieldName("X-Injected")] = "a\r\nEvil: 1"
            }

            let result = await Self.send(transport, server, observer: observer)

            guard case .failure(.invalidRequest(let reason)) = result else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
            #expect(reason.contains("redirect hop observer"))
            #expect(server.requestCount == 1)
        }
    }
}
