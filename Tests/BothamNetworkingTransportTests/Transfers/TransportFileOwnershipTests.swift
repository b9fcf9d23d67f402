import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports write a body file only where they are told, and never remove it", .timeLimit(.minutes(1)))
    struct TransportFileOwnershipTests {
        @Test(
            "a body cut mid-way leaves the file it was told to write in place, for its owner to remove",
            arguments: TransportUnderTest.allCases)
        func partialFileStays(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 2 * 1024 * 1024))
                    .withSocketPolicy(.disconnectDuringBody))
            let file = folder.file("partial.bin")
            let request = HTTPRequest(method: .get, url: server.url("/file")).withResponseDestination(.file(file))

            await #expect(throws: APIClientError.self) { try await transport.make().send(request) }

            #expect(try folder.contents() == ["partial.bin"])
        }
    }
}
