import BothamNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPBinInteropTests {
    @Suite("httpbin: verbs, bodies and headers", .timeLimit(.minutes(1)))
    struct HTTPBinVerbTests {
        let apiClient = HTTPBin.client()

        @Test("GET /get sends the query parameters")
        func getSendsQuery() async throws {
            let response = try await apiClient.GET("/get", parameters: ["q": "swift testing", "page": "2"]).get()
            #expect(response.statusCode == 200)
            let json = try response.json()
            #expect(json["args"]?["q"] == "swift testing")
            #expect(json["args"]?["page"] == "2")
        }

        @Test("POST /post sends a JSON body")
        func postSendsJSON() async throws {
            let response = try await apiClient.POST("/post", body: ["name": "Botham", "tags": ["a", "b"], "n": 3]).get()
            let json = try response.json()
            #expect(json["json"]?["name"] == "Botham")
            #expect(json["json"]?["tags"] == ["a", "b"])
            #expect(json["json"]?["n"] == 3)
            #expect(json["headers"]?["Content-Type"] == "application/json")
        }

        @Test("POST /post sends a form body")
        func postSendsForm() async throws {
            let response = try await apiClient.POST("/post", body: .form(["user": "jane doe", "password": "s3cr3t&="]))
                .get()
            let json = try response.json()
            #expect(json["form"]?["user"] == "jane doe")
            #expect(json["form"]?["password"] == "s3cr3t&=")
        }

        @Test("PUT /put sends its body")
        func putSendsBody() async throws {
            let response = try await apiClient.PUT("/put", body: ["done": true]).get()
            #expect(response.statusCode == 200)
            #expect(try response.json()["json"] == ["done": true])
        }

        @Test("PATCH /patch sends its body")
        func patchSendsBody() async throws {
            let response = try await apiClient.PATCH("/patch", body: .text("partial")).get()
            #expect(response.statusCode == 200)
            #expect(try response.json()["data"] == "partial")
        }

        @Test("DELETE /delete reaches the server")
        func deleteReachesServer() async throws {
            let response = try await apiClient.DELETE("/delete", parameters: ["id": "7"]).get()
            #expect(response.statusCode == 200)
            #expect(try response.json()["args"]?["id"] == "7")
        }

        @Test("/anything echoes method, binary body and headers", arguments: [HTTPMethod.post, .put, .patch, .delete])
        func anythingEchoes(method: HTTPMethod) async throws {
            let bytes = Data([0x00, 0x01, 0xFE, 0xFF])
            let request = apiClient.request(
                method,
                "/anything/echo",
                headers: ["X-Trace": "t-1"],
                body: .data(bytes, contentType: "application/octet-stream")
            )
            let response = try await apiClient.send(request).get()
            let json = try response.json()
            #expect(json["method"] == .string(method.rawValue))
            #expect(json["headers"]?["X-Trace"] == "t-1")
            #expect(json["data"] == "data:application/octet-stream;base64,AAH+/w==")
        }

        @Test("/headers receives custom header fields")
        func headersRoundTrip() async throws {
            let response = try await apiClient.GET(
                "/headers", headers: ["X-Api-Key": "k-123", "Accept": "application/json"]
            )
            .get()
            let json = try response.json()
            #expect(json["headers"]?["X-Api-Key"] == "k-123")
            #expect(json["headers"]?["Accept"] == "application/json")
        }

        @Test("/bytes/{n} returns exactly n bytes")
        func bytesCount() async throws {
            let response = try await apiClient.GET("/bytes/102400").get()
            #expect(response.body.count == 102_400)
        }

        @Test("a body past maxResponseBytes ends with responseTooLarge")
        func maxResponseBytes() async throws {
            let limited = HTTPBin.client(.init(limits: .init(maxResponseBytes: 10_000)))
            let result = await limited.GET("/bytes/50000")
            guard case .failure(.networkError(let failure)) = result else {
                Issue.record("expected responseTooLarge, got \(result)")
                return
            }
            #expect(failure.kind == .responseTooLarge)
            #expect(try await limited.GET("/bytes/5000").get().body.count == 5000)
        }

        @Test("/response-headers come back, in a deterministic order")
        func responseHeaders() async throws {
            let response = try await apiClient.GET("/response-headers", parameters: ["X-Zeta": "z", "X-Alpha": "a"])
                .get()
            #expect(response.headers["x-zeta"] == "z")
            #expect(response.headers["X-Alpha"] == "a")
            if !HTTPBin.runsOnNative {
                // URLSession hands headers over as a dictionary, so the transport sorts them; the native transport
                // keeps the server's order, which is deterministic already.
                let names = response.headers.fields.map { $0.name.rawName.lowercased() }
                #expect(names == names.sorted())
            }
        }

        @Test("/gzip and /deflate bodies arrive decoded with consistent headers", arguments: ["gzip", "deflate"])
        func decodedBodies(coding: String) async throws {
            let response = try await apiClient.GET("/\(coding)").get()
            let json = try response.json()
            #expect(json[coding == "gzip" ? "gzipped" : "deflated"] == true)
            #expect(response.headers[.contentEncoding] == nil)
            // httpbin sends the compressed size as Content-Length; that stale length is dropped with the encoding.
            #expect(response.headers[.contentLength] == nil, "\(response.body.count) decoded bytes")
        }

        @Test(
            "A session given a cookie storage stores /cookies/set's cookie and sends it after the redirect",
            .enabled(
                if: !HTTPBin.runsOnNative,
                "a test of URLSession's own cookie storage; a CookieJar covers both transports (HTTPBinCookieTests)"
            )
        )
        func cookies() async throws {
            // The default session keeps no cookies; an ephemeral one keeps them in memory.
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            let apiClient = BothamAPIClient(
                baseEndpoint: try #require(HTTPBin.url),
                httpClient: URLSessionHTTPClient(sessionConfiguration: sessionConfiguration))
            let response = try await apiClient.GET("/cookies/set", parameters: ["flavour": "oat"]).get()
            #expect(response.statusCode == 200)
            #expect(
                try response.json()["cookies"]?["flavour"] == "oat", "\(String(decoding: response.body, as: UTF8.self))"
            )
        }
    }
}
