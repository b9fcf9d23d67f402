import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite(
        "Both transports: a conditional GET accepting 304 revalidates with ETag and If-None-Match",
        .timeLimit(.minutes(1)))
    struct TransportConditionalGetTests {
        struct Manifest: Decodable, Sendable, Equatable {
            let tag: String
        }

        @Test(
            "the first GET decodes the value, the conditional one decodes 304 as nil",
            arguments: TransportUnderTest.allCases)
        func conditionalGet(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withHeader("ETag", #""v1""#).withJSONBody(#"{"tag":"v1"}"#))
            server.enqueue(MockResponse().withStatus(304).withHeader("ETag", #""v1""#))
            server.enqueue(MockResponse().withStatus(304).withHeader("ETag", #""v1""#))
            // The default validation (2xx only): the endpoint's `.accepting` is what lets the 304 through.
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make(),
                configuration: .init(maxRetries: 0))

            func manifest(etag: String?) -> Endpoint<Manifest?> {
                Endpoint<Manifest?>(.get, "/manifest", headers: etag.map { ["If-None-Match": $0] } ?? [:])
                    .accepting(.successfulStatusCodes.adding(304))
            }
            let first = try await apiClient.response(for: manifest(etag: nil).request(for: apiClient))
            #expect(try first.decoded(as: Manifest.self) == Manifest(tag: "v1"))
            let etag = try #require(first.headers["ETag"])
            #expect(try await apiClient.value(for: manifest(etag: etag)) == nil)
            // The same 304 to an endpoint that does not accept it is an error.
            let unaccepting = Endpoint<Manifest?>(.get, "/manifest", headers: ["If-None-Match": etag])
            do {
                let value = try await apiClient.value(for: unaccepting)
                Issue.record("expected httpResponseError, got \(String(describing: value))")
            } catch {
                guard case .httpResponseError(let response) = error else {
                    Issue.record("expected httpResponseError, got \(error)")
                    return
                }
                #expect(response.statusCode == 304)
            }

            _ = try await server.takeRequest()
            let conditional = try await server.takeRequest()
            #expect(conditional.header("If-None-Match") == #""v1""#)
        }
    }
}
