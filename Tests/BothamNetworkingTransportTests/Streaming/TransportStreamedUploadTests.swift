import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite(
        "Both transports against MockWebServer: request bodies streamed from async sequences", .timeLimit(.minutes(1)))
    struct TransportStreamedUploadTests {
        /// `count` chunks of `size` bytes each.
        static func chunks(_ count: Int, size: Int) -> AsyncStream<Data> {
            AsyncStream { continuation in
                for remaining in (0..<count).reversed() {
                    continuation.yield(Data(repeating: UInt8(ascii: "a") + UInt8(remaining % 26), count: size))
                }
                continuation.finish()
            }
        }

        static func expectedBody(_ count: Int, size: Int) -> Data {
            var data = Data()
            for remaining in (0..<count).reversed() {
                data.append(Data(repeating: UInt8(ascii: "a") + UInt8(remaining % 26), count: size))
            }
            return data
        }

        @Test(
            "a body of unknown length arrives whole, chunked on native over HTTP/1.1, in DATA frames over HTTP/2",
            arguments: TransportUnderTest.allCases)
        func unknownLength(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 201))
            let apiClient = TransportTest.client(transport, server)

            let body = HTTPBody.stream(contentType: "application/x-ndjson", Self.chunks(40, size: 10_000))
            let response = try await apiClient.POST("/ingest", body: body).get()

            let recorded = try await server.takeRequest()
            #expect(response.statusCode == 201)
            #expect(recorded.body == Self.expectedBody(40, size: 10_000))
            #expect(recorded.header("Content-Type") == "application/x-ndjson")
            if transport == .nativeHTTP2 {
                // HTTP/2 has no chunked coding (RFC 9113 §8.2.2): the stream's end ends the body.
                #expect(recorded.version == "HTTP/2")
                #expect(recorded.header("Transfer-Encoding") == nil)
                #expect(recorded.header("Content-Length") == nil)
            } else if transport.isNative {
                #expect(recorded.header("Transfer-Encoding") == "chunked")
                #expect(recorded.chunkSizes.count >= 40)
            }
        }

        @Test("a body of known length goes out with that Content-Length", arguments: TransportUnderTest.allCases)
        func knownLength(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse())
            let apiClient = TransportTest.client(transport, server)

            let body = HTTPBody.stream(length: 30_000, Self.chunks(3, size: 10_000))
            _ = try await apiClient.PUT("/blob", body: body).get()

            let recorded = try await server.takeRequest()
            #expect(recorded.header("Content-Length") == "30000")
            #expect(recorded.body == Self.expectedBody(3, size: 10_000))
        }

        @Test("a body shorter than its declared length fails the call", arguments: TransportUnderTest.allCases)
        func lengthMismatch(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDefaultResponse(MockResponse())
            let apiClient = TransportTest.client(transport, server)

            let result = await apiClient.PUT("/blob", body: .stream(length: 50_000, Self.chunks(3, size: 10_000)))

            guard case .failure(.invalidRequest(let reason)) = result else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
            #expect(reason.contains("30000 of its 50000"))
        }

        @Test("a one-shot body is not sent again after a 307", arguments: TransportUnderTest.allCases)
        func oneShotBodyAndRedirect(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 307).withHeader("Location", "/elsewhere"))
            server.setDefaultResponse(MockResponse())
            let apiClient = TransportTest.client(transport, server)

            let result = await apiClient.POST("/upload", body: .stream(Self.chunks(2, size: 100)))

            guard case .failure(.invalidRequest) = result else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
            #expect(server.requestCount == 1)
        }

        @Test("a body with a factory is sent again after a 307", arguments: TransportUnderTest.allCases)
        func replayableBodyAndRedirect(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse(statusCode: 307).withHeader("Location", "/elsewhere"))
            server.enqueue(MockResponse(statusCode: 201))
            let apiClient = TransportTest.client(transport, server)

            let body = HTTPBody.stream(replayable: { Self.chunks(2, size: 100) })
            let response = try await apiClient.POST("/upload", body: body).get()

            #expect(response.statusCode == 201)
            _ = try await server.takeRequest()
            let second = try await server.takeRequest()
            #expect(second.path == "/elsewhere")
            #expect(second.body == Self.expectedBody(2, size: 100))
        }
    }
}
