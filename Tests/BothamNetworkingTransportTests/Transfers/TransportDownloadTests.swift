import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports download to files", .timeLimit(.minutes(1)))
    struct TransportDownloadTests {
        // URLSessionHTTPClient streams the body to the file; NativeHTTPClient returns it in memory (within its
        // maxResponseBytes) and the pipeline writes it to the same temporary file, then moves it into place.
        @Test(
            "a download lands in its destination file with the body and no leftovers",
            arguments: TransportUnderTest.allCases)
        func download(transport: TransportUnderTest) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: 300_000)
            server.enqueue(MockResponse().withBody(body))
            let destination = folder.file("body.bin")

            let received = try await TransportTest.client(transport, server).download("/file", to: .file(destination))
                .get()

            #expect(received.bodyFileURL == destination)
            #expect(received.body.isEmpty)
            #expect(try Data(contentsOf: destination) == body)
            #expect(try folder.contents() == ["body.bin"])
        }
    }
}
