import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports: a Location chain resolves with its query kept byte for byte", .timeLimit(.minutes(1)))
    struct TransportResolvedLocationTests {
        @Test(
            "a relative Location from the server resolves against the request URL",
            arguments: TransportUnderTest.allCases)
        func relativeLocation(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withStatus(202).withHeader(.location, "../uploads/u-1?_state=a%2Fb+c%3D&n=1"))
            server.enqueue(MockResponse().withStatus(201).withHeader(.location, "/v2/app/blobs/sha256:ab"))
            let apiClient = TransportTest.client(transport, server)

            let started = try await apiClient.POST("/v2/app/blobs/uploads/").get()
            let upload = try #require(started.resolvedLocation)
            #expect(
                upload.absoluteString == server.url("/v2/app/blobs/uploads/u-1").absoluteString
                    + "?_state=a%2Fb+c%3D&n=1")
            let finished = try await apiClient.send(
                apiClient.request(.put, upload.absoluteString, body: .data(Data("blob".utf8)))
            ).get()
            #expect(finished.resolvedLocation == server.url("/v2/app/blobs/sha256:ab"))

            _ = try await server.takeRequest()
            let put = try await server.takeRequest()
            #expect(put.method == .put)
            #expect(put.target == "/v2/app/blobs/uploads/u-1?_state=a%2Fb+c%3D&n=1")
        }
    }
}
