import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

/// What `HTTPInterceptor`'s documentation promises about the request an onion interceptor is given.
@Suite("An onion interceptor is given the prepared request", .timeLimit(.minutes(1)))
struct WhatAnInterceptorSeesTests {
    /// Records the request it is given and passes it on, or passes on `change(request)`.
    struct Watching: HTTPInterceptor {
        let seen: Recorder<HTTPRequest>
        /// Whether each request it was given was prepared by its call, as the call saw it.
        var prepared = Recorder<Bool>()
        var change: @Sendable (HTTPRequest) -> HTTPRequest = { $0 }

        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            seen.append(request)
            prepared.append(request.isPrepared)
            return try await next(change(request))
        }
    }

    /// Adds a header, as a credentials interceptor does.
    struct AddingToken: BothamRequestInterceptor {
        func intercept(request: HTTPRequest) -> HTTPRequest {
            request.withHeader("X-Token", "t")
        }
    }

    private static func client(
        watching seen: Recorder<HTTPRequest>, prepared: Recorder<Bool> = Recorder<Bool>()
    ) -> (BothamAPIClient, StubHTTPClient) {
        let stub = StubHTTPClient()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com/v1", httpClient: stub)
        apiClient.interceptors.append(Watching(seen: seen, prepared: prepared))
        return (apiClient, stub)
    }

    @Test("its resolvedURL() is the URL the transport sends: endpoint, path and parameters, percent-encoded")
    func resolvedURL() async throws {
        let seen = Recorder<HTTPRequest>()
        let prepared = Recorder<Bool>()
        let (apiClient, stub) = Self.client(watching: seen, prepared: prepared)

        _ = await apiClient.GET("/items/a b", parameters: ["q": "x y", "page": "2"])

        let request = try #require(seen.values.first)
        #expect(prepared.values == [true])
        #expect(try request.resolvedURL().absoluteString == "https://api.example.com/v1/items/a%20b?q=x%20y&page=2")
        #expect(stub.receivedRequests.first?.url == (try request.resolvedURL()))
    }

    @Test("a dictionary or form body is already encoded, and Content-Type is set by preparation")
    func encodedBodies() async throws {
        let seen = Recorder<HTTPRequest>()
        let (apiClient, _) = Self.client(watching: seen)

        _ = await apiClient.POST("/items", body: ["name": "botham"])
        _ = await apiClient.POST("/login", body: .form(["user": "jane doe"]))

        let json = try #require(seen.values.first)
        #expect(json.body == .data(Data(#"{"name":"botham"}"#.utf8)))
        #expect(try json.bodyData() == Data(#"{"name":"botham"}"#.utf8))
        #expect(json.headers[.contentType] == "application/json")
        let form = try #require(seen.values.last)
        #expect(try form.bodyData() == Data("user=jane%20doe".utf8))
        #expect(form.headers[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test("its headers are the caller's, the request interceptors' and Content-Type: nothing else yet")
    func headers() async throws {
        let seen = Recorder<HTTPRequest>()
        let (apiClient, _) = Self.client(watching: seen)
        apiClient.requestInterceptors.append(AddingToken())

        _ = await apiClient.POST("/items", headers: ["X-Trace": "7"], body: .text("hi"))

        let request = try #require(seen.values.first)
        #expect(request.headers.fields.map(\.name.canonicalName) == ["x-trace", "x-token", "content-type"])
        #expect(request.headers[.contentType] == "text/plain; charset=utf-8")
    }

    @Test("a file body is still the file, with its Content-Type set")
    func fileBodies() async throws {
        let seen = Recorder<HTTPRequest>()
        let (apiClient, _) = Self.client(watching: seen)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seen-\(UUID().uuidString).bin")
        try Data("file bytes".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        _ = await apiClient.upload("/blobs", method: .put, fromFile: file, contentType: "application/x-test")

        let request = try #require(seen.values.first)
        #expect(request.method == .put)
        #expect(request.body?.fileURL == file)
        #expect(request.headers[.contentType] == "application/x-test")
    }

    @Test("a streamed body is still the stream, not read")
    func streamedBodies() async throws {
        let seen = Recorder<HTTPRequest>()
        let (apiClient, _) = Self.client(watching: seen)
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("chunk".utf8))
            continuation.finish()
        }

        _ = await apiClient.POST("/ingest", body: .stream(length: 5, contentType: "text/plain", stream))

        let request = try #require(seen.values.first)
        #expect(request.body?.streamed?.length == 5)
        #expect(request.headers[.contentType] == "text/plain")
    }

    @Test("a request interceptor, by contrast, runs before preparation: no Content-Type, the body not yet encoded")
    func requestInterceptorsSeeTheUnpreparedRequest() async throws {
        struct Inspecting: BothamRequestInterceptor {
            let seen: Recorder<HTTPRequest>
            let prepared = Recorder<Bool>()
            func intercept(request: HTTPRequest) -> HTTPRequest {
                seen.append(request)
                prepared.append(request.isPrepared)
                return request
            }
        }
        let seen = Recorder<HTTPRequest>()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: StubHTTPClient())
        let inspecting = Inspecting(seen: seen)
        apiClient.requestInterceptors.append(inspecting)

        _ = await apiClient.POST("/items", body: ["name": "botham"])

        let request = try #require(seen.values.first)
        #expect(inspecting.prepared.values == [false])
        #expect(request.headers[.contentType] == nil)
        #expect(request.body == ["name": "botham"])
    }

    @Test("a header it adds that fails preparation ends the call with invalidRequest, and nothing is sent")
    func invalidChangeIsNotSent() async throws {
        let seen = Recorder<HTTPRequest>()
        let stub = StubHTTPClient()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.interceptors.append(Watching(seen: seen) { $0.withHeader("X-Signature", "a\r\nInjected: 1") })

        let result = await apiClient.GET("/items")

        guard case .failure(.invalidRequest) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(seen.count == 1)
        #expect(stub.receivedRequests.isEmpty)
    }
}
