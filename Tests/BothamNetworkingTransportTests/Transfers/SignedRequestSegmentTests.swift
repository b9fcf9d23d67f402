import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// Adds `name: value` to every request, as a signer does.
private struct AddingInterceptor: HTTPInterceptor {
    let name: HTTPFieldName
    let value: String

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader(name, value))
    }
}

/// Passes every request on unchanged, as a logger does.
private struct PassingInterceptor: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request)
    }
}

extension TransportIntegrationTests {
    @Suite(
        "URLSessionHTTPClient never fetches a request that may be signed in byte ranges", .timeLimit(.minutes(1)))
    struct SignedRequestSegmentTests {
        /// Where the request may be changed before it is sent.
        enum Signing: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case authorizationHeader, proxyAuthorizationHeader, interceptor, networkInterceptor
            var testDescription: String { rawValue }
        }

        private static func client(_ server: MockWebServer) -> BothamAPIClient {
            BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(configuration: .init(downloadSegmentBytes: 4)),
                configuration: .init(maxRetries: 0, validation: .acceptAll)
            )
        }

        @Test(
            "a request with Authorization or Proxy-Authorization, or changed by an interceptor of either list, is sent without Range in one request",
            arguments: Signing.allCases)
        func signedRequestsComeWhole(signing: Signing) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("a body of 20 bytes.."))
            let apiClient = Self.client(server)
            var headers: HTTPHeaders = [:]
            switch signing {
            case .authorizationHeader: headers[.authorization] = "Bearer t0k3n"
            case .proxyAuthorizationHeader: headers[.proxyAuthorization] = "Basic cHJveHk6c2VjcmV0"
            case .interceptor: apiClient.interceptors.append(AddingInterceptor(name: "X-Signature", value: "s1"))
            case .networkInterceptor:
                apiClient.networkInterceptors.append(AddingInterceptor(name: "X-Signature", value: "s1"))
            }

            let response = try await apiClient.download(
                "/object", headers: headers, to: .file(folder.file("object.bin"))
            ).get()

            #expect(response.statusCode == 200)
            #expect(try Data(contentsOf: folder.file("object.bin")) == Data("a body of 20 bytes..".utf8))
            let recorded = try await server.takeRequest()
            #expect(recorded.header("Range") == nil)
            #expect(server.requestCount == 1)
        }

        @Test("a request no interceptor changed still comes in segments, even with a logger among the interceptors")
        func unchangedRequestsAreSegmented() async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("whole"))
            let apiClient = Self.client(server)
            apiClient.interceptors.append(PassingInterceptor())
            apiClient.networkInterceptors.append(PassingInterceptor())

            _ = try await apiClient.download("/object", to: .file(folder.file("object.bin"))).get()

            let recorded = try await server.takeRequest()
            #expect(recorded.header("Range") == "bytes=0-3")
        }
    }
}
