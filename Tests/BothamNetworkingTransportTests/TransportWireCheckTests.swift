import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports check header syntax on what they send", .timeLimit(.minutes(1)))
    struct TransportWireCheckTests {
        /// An onion interceptor that adds a header after the client's own checks.
        struct Injecting: HTTPInterceptor {
            let name: String
            let value: String

            func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
                -> HTTPResponse
            {
                try await next(request.appendingHeaders([HTTPFieldName(name): value]))
            }
        }

        @Test(
            "a header an interceptor adds with CR, LF, NUL or a bad name is refused and nothing is sent",
            arguments: TransportUnderTest.allCases,
            [
                ("X-Note", "a\r\nInjected: yes"), ("X-Note", "a\nb"), ("X-Note", "a\u{0}b"),
                ("Bad Name", "x"), ("X-Split\r\nGET / HTTP/1.1", "x"),
            ])
        func injectionIsRefused(transport: TransportUnderTest, header: (String, String)) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDefaultResponse(MockResponse())
            let apiClient = TransportTest.client(transport, server)
            apiClient.interceptors.append(Injecting(name: header.0, value: header.1))

            let result = await apiClient.GET("/")

            guard case .failure(.invalidRequest) = result else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
            #expect(server.requestCount == 0)
        }
    }
}
