import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    /// What the conformance suite's `verbsAndBodies` and `headers` checks leave out (the suite runs verbs, query,
    /// fields as given, error statuses, identity bodies and repeated `Set-Cookie` fields on every transport,
    /// `OwnTransportsConformanceTests`): exact bodies and their `Content-Type`, each transport's response fields, and
    /// `Content-Type` kept on a decoded body.
    @Suite("Both transports against MockWebServer: bodies and response fields", .timeLimit(.minutes(1)))
    struct TransportRoundTripTests {
        @Test("JSON, form and binary bodies arrive byte for byte", arguments: TransportUnderTest.allCases)
        func bodies(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [MockResponse(), MockResponse(), MockResponse()])
            let apiClient = TransportTest.client(transport, server)
            let binary = Data([0x00, 0xFF, 0x0D, 0x0A, 0x80])

            _ = try await apiClient.POST("/json", body: ["name": "Ada", "n": 1]).get()
            _ = try await apiClient.PUT("/form", body: .form(["a": "1 2", "b": "x&y"])).get()
            _ = try await apiClient.PATCH("/bin", body: .data(binary, contentType: "application/octet-stream")).get()

            let json = try await server.takeRequest()
            #expect(json.bodyAsString == #"{"name":"Ada","n":1}"#)
            #expect(json.header("Content-Type") == "application/json")
            let form = try await server.takeRequest()
            #expect(form.method == "PUT")
            #expect(form.bodyAsString == "a=1%202&b=x%26y")
            #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
            let bin = try await server.takeRequest()
            #expect(bin.body == binary)
            #expect(bin.header("Content-Type") == "application/octet-stream")
        }

        @Test(
            "response status, body and headers come back",
            arguments: TransportUnderTest.allCases)
        func responseHeaders(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse(statusCode: 201)
                    .withHeader("X-Zeta", "z")
                    .withHeader("x-alpha", "a")
                    .withHeader("Location", "/things/1")
                    .withJSONBody(#"{"id":1}"#)
            )
            let apiClient = TransportTest.client(transport, server)

            let response = try await apiClient.POST("/things").get()

            #expect(response.statusCode == 201)
            #expect(try response.json()["id"] == 1)
            #expect(response.headers["X-Alpha"] == "a")
            #expect(response.headers[.location] == "/things/1")
            // A deliberate difference: URLSession hands headers over as a dictionary, so they come back sorted by
            // name; the native client keeps the server's order.
            let names = response.headers.fields.map { $0.name.rawName.lowercased() }
            switch transport {
            case .urlSession: #expect(names == names.sorted())
            case .native, .nativeTwoLoops, .nativeHTTP2:
                #expect(names == ["x-zeta", "x-alpha", "location", "content-type", "content-length"])
            }
            #expect(response.url == server.url("/things"))
        }

        @Test(
            "gzip and deflate bodies arrive decoded without stale Content-Encoding and Content-Length",
            arguments: TransportUnderTest.allCases,
            [
                ("gzip", "H4sIAAAAAAACA6tWSi9KTS3JzEtXslLKSM3JyVcYOaRSLQAZj1Ky/wAAAA=="),
                ("deflate", "eJyrVkovSk0tycxLV7JSykjNyclXGDmkUi0AnTddMA=="),
            ])
        func decodedBodies(transport: TransportUnderTest, encoded: (coding: String, base64: String)) async throws {
            let (coding, base64) = encoded
            let server = try MockWebServer()
            defer { server.shutdown() }
            let compressed = try #require(Data(base64Encoded: base64))
            server.enqueue(
                MockResponse().withHeader("Content-Encoding", coding).withHeader("Content-Type", "application/json")
                    .withBody(compressed)
            )

            let response = try await TransportTest.client(transport, server).GET("/compressed").get()

            #expect(response.body.count == 255)
            #expect(try response.json()["greeting"] == .string(String(repeating: "hello ", count: 40)))
            #expect(response.headers[.contentEncoding] == nil)
            #expect(response.headers[.contentLength] == nil)
            #expect(response.headers[.contentType] == "application/json")
        }

    }
}
