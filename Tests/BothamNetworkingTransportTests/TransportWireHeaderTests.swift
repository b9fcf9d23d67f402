import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records every request it is given: as the innermost network interceptor, the request as it goes on the wire.
private struct LastInterceptor: HTTPInterceptor {
    let seen: Recorder<HTTPRequest>

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        seen.append(request)
        return try await next(request)
    }
}

/// Removes one header field before passing the request on.
private struct RemovingInterceptor: HTTPInterceptor {
    let name: HTTPFieldName

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        var headers = request.headers
        headers.remove(name)
        return try await next(request.withHeaders(headers))
    }
}

/// Adds an `Authorization` computed from the request, as a signer does.
private struct Signer: HTTPInterceptor {
    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        try await next(request.withHeader(.authorization, "Sig \(request.method.rawValue) \(request.path)"))
    }
}

/// A user's wrapper around another transport (public API only), as a logging or metrics decorator is.
private struct WrappingTransport: HTTPClient {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        try await inner.send(request)
    }
}

/// One kind of request the wire-equality test sends.
enum WireCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case getInMemory, postRawBytes, postJSON, putFromFile, postStreamed, postStreamedChunked, downloadToFile,
        userHeaders, signed, postLarge, putLargeFromFile

    var testDescription: String { rawValue }
}

extension TransportIntegrationTests {
    @Suite(
        "The innermost interceptor sees the request header for header as the server receives it",
        .timeLimit(.minutes(1)))
    struct TransportWireHeaderTests {
        /// Header fields the transports add while sending (framing), which no interceptor sees.
        static let framing: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

        /// `chunks` as a one-shot async sequence, for a streamed request body.
        static func stream(_ chunks: [Data]) -> AsyncStream<Data> {
            AsyncStream { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
        }

        /// `headers` without the framing fields, as sorted `name: value` lines with lowercased names.
        static func wire(_ headers: HTTPHeaders) -> [String] {
            headers.fields.filter { !framing.contains($0.name.rawName.lowercased()) }
                .map { "\($0.name.rawName.lowercased()): \($0.value)" }.sorted()
        }

        @Test(
            "what MockWebServer received is what the innermost network interceptor saw",
            arguments: TransportUnderTest.allCases, WireCase.allCases)
        func wireEquality(transport: TransportUnderTest, wireCase: WireCase) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("done"))
            let apiClient = TransportTest.client(transport, server)
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            let result: Result<HTTPResponse, APIClientError>
            switch wireCase {
            case .getInMemory:
                result = await apiClient.GET("/items", parameters: ["q": "a b"])
            case .postRawBytes:
                result = await apiClient.POST("/raw", body: .data(Data([1, 2, 3])))
            case .postJSON:
                result = await apiClient.POST("/json", body: ["name": "Ada"])
            case .putFromFile:
                let file = folder.file("upload.bin")
                try Data("file body".utf8).write(to: file)
                result = await apiClient.upload("/objects/1", method: .put, fromFile: file)
            case .postStreamed:
                let chunks = [Data("first ".utf8), Data("second".utf8)]
                result = await apiClient.POST(
                    "/ingest", body: .stream(length: 12, contentType: "text/plain", Self.stream(chunks)))
            case .postStreamedChunked:
                let chunks = [Data("{\"a\":1}\n".utf8), Data("{\"a\":2}\n".utf8)]
                result = await apiClient.POST(
                    "/ingest", body: .stream(contentType: "application/x-ndjson", Self.stream(chunks)))
            case .downloadToFile:
                result = await apiClient.download("/big", to: .file(folder.file("big.bin")))
            case .userHeaders:
                result = await apiClient.GET(
                    "/mine",
                    headers: ["User-Agent": "mine/1", "Accept-Encoding": "identity", "Accept": "application/json"])
            case .signed:
                apiClient.interceptors.append(Signer())
                result = await apiClient.GET("/signed")
            case .postLarge:
                // Over libcurl's threshold for `Expect: 100-continue` (1 MiB): no field is added for a large body.
                result = await apiClient.POST("/large", body: .data(Data(repeating: 7, count: 2 << 20)))
            case .putLargeFromFile:
                let file = folder.file("large.bin")
                try Data(repeating: 9, count: 3 << 20).write(to: file)
                result = await apiClient.upload("/objects/large", method: .put, fromFile: file)
            }

            _ = try result.get()
            let recorded = try await server.takeRequest()
            let sent = try #require(seen.values.first)
            #expect(seen.count == 1)
            if transport == .urlSession, wireCase == .downloadToFile {
                // The one documented exception: a file download nobody signed may come in byte ranges.
                #expect(recorded.header("Range") == "bytes=0-\((64 << 20) - 1)")
                var unranged = recorded.headers
                unranged.remove("Range")
                #expect(Self.wire(unranged) == Self.wire(sent.headers))
            } else {
                #expect(Self.wire(recorded.headers) == Self.wire(sent.headers))
            }
            #expect(recorded.method == sent.method)
            let url = try sent.resolvedURL()
            #expect(recorded.path == url.path)
            #expect(recorded.query == url.query)
            if wireCase == .userHeaders {
                #expect(recorded.headers.values(for: "User-Agent") == ["mine/1"])
                #expect(recorded.headers.values(for: "Accept-Encoding") == ["identity"])
                #expect(recorded.headers.values(for: "Accept") == ["application/json"])
            }
            if wireCase == .signed {
                #expect(recorded.header(.authorization) == "Sig GET /signed")
            }
        }

        @Test(
            "a cookie a response set is sent on the next request only by a jar or a session given a cookie storage",
            // Every transport as it comes, and URLSession given a cookie storage (native has no session storage).
            arguments: TransportUnderTest.allCases.map { ($0, false) } + [(.urlSession, true)])
        func cookieFromAnEarlierResponse(transport: TransportUnderTest, sessionKeepsCookies: Bool) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                contentsOf: [
                    MockResponse().withHeader("Set-Cookie", "session=abc; Path=/"),
                    MockResponse().withHeader("Set-Cookie", "theme=dark; Path=/"), MockResponse(), MockResponse(),
                ])
            let apiClient =
                sessionKeepsCookies
                ? Self.cookieKeepingClient(server) : TransportTest.client(transport, server)
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            _ = try await apiClient.GET("/login").get()
            _ = try await apiClient.GET("/next").get()
            _ = try await apiClient.GET("/mine", headers: [.cookie: "mine=1"]).get()
            _ = try await apiClient.GET("/last").get()

            _ = try await server.takeRequest()
            let next = try await server.takeRequest()
            let mine = try await server.takeRequest()
            let last = try await server.takeRequest()
            try #require(seen.count == 4)
            // The stored cookies reach the wire as the innermost interceptor saw them; by default nobody stores any.
            #expect(Self.wire(next.headers) == Self.wire(seen.values[1].headers))
            #expect(next.header(.cookie) == (sessionKeepsCookies ? "session=abc" : nil))
            #expect(Self.wire(last.headers) == Self.wire(seen.values[3].headers))
            // The storage's order is its own: compare the cookies as a set.
            let cookies = { (request: RecordedRequest) in
                Set(
                    (request.header(.cookie) ?? "").split(separator: ";").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    })
            }
            #expect(cookies(last) == (sessionKeepsCookies ? ["session=abc", "theme=dark"] : []))
            if sessionKeepsCookies {
                #if canImport(FoundationNetworking)
                    // The documented exception: FoundationNetworking replaces a request's own Cookie with the stored.
                    #expect(mine.headers.values(for: .cookie).count == 1)
                    #expect(cookies(mine) == ["session=abc", "theme=dark"])
                #endif
            } else {
                #expect(Self.wire(mine.headers) == Self.wire(seen.values[2].headers))
                #expect(mine.headers.values(for: .cookie) == ["mine=1"])
            }
        }

        /// A URLSession client whose session keeps cookies, configured as the README shows.
        static func cookieKeepingClient(_ server: MockWebServer) -> BothamAPIClient {
            let sessionConfiguration = URLSessionHTTPClient.defaultSessionConfiguration()
            sessionConfiguration.httpShouldSetCookies = true
            sessionConfiguration.httpCookieAcceptPolicy = .always
            sessionConfiguration.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
            return BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(sessionConfiguration: sessionConfiguration),
                configuration: .init(maxRetries: 0, validation: .acceptAll))
        }

        @Test("a session holding a cookie sends it once on a same-origin redirect, as on the first hop")
        func storedCookieOnARedirect() async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                contentsOf: [
                    MockResponse().withHeader("Set-Cookie", "session=abc; Path=/"),
                    MockResponse(statusCode: 302).withHeader("Location", "/moved"), MockResponse(),
                ])
            let apiClient = Self.cookieKeepingClient(server)
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            _ = try await apiClient.GET("/login").get()
            _ = try await apiClient.GET("/old").get()

            _ = try await server.takeRequest()
            let first = try await server.takeRequest()
            let hop = try await server.takeRequest()
            #expect(first.headers.values(for: .cookie) == ["session=abc"])
            #expect(Self.wire(first.headers) == Self.wire(try #require(seen.values.last).headers))
            #expect(hop.path == "/moved")
            #expect(hop.headers.values(for: .cookie) == ["session=abc"], "the stored cookie once, not twice")
        }

        @Test(
            "a transport used without a client sends the same fields as through one",
            arguments: TransportUnderTest.allCases)
        func directUse(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [MockResponse(), MockResponse()])
            let apiClient = TransportTest.client(transport, server)
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            _ = try await apiClient.GET("/through").get()
            _ = try await transport.make().send(HTTPRequest(method: .get, url: server.url("/direct")))

            let through = try await server.takeRequest()
            let direct = try await server.takeRequest()
            #expect(Self.wire(direct.headers) == Self.wire(through.headers))
            #expect(Self.wire(direct.headers) == Self.wire(try #require(seen.values.first).headers))
        }

        @Test(
            "a transport wrapped in a user's transport still sends its own fields (native still offers gzip)",
            arguments: TransportUnderTest.allCases)
        func wrappedTransport(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(contentsOf: [MockResponse(), MockResponse()])
            let direct = TransportTest.client(transport, server)
            let wrapped = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: WrappingTransport(inner: transport.make()),
                configuration: .init(maxRetries: 0, validation: .acceptAll))

            _ = try await direct.GET("/direct").get()
            _ = try await wrapped.GET("/wrapped").get()

            let throughDirect = try await server.takeRequest()
            let throughWrapper = try await server.takeRequest()
            #expect(Self.wire(throughWrapper.headers) == Self.wire(throughDirect.headers))
            #expect(throughWrapper.header("Accept-Encoding") != nil)
        }

        @Test(
            "a transport field an interceptor removes stays removed on native and comes back on URLSession, as documented",
            arguments: TransportUnderTest.allCases)
        func removedTransportField(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse())
            let apiClient = TransportTest.client(transport, server)
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(RemovingInterceptor(name: "Accept-Encoding"))
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            _ = try await apiClient.GET("/plain").get()

            let recorded = try await server.takeRequest()
            let sent = try #require(seen.values.first)
            #expect(sent.headers["Accept-Encoding"] == nil)
            switch transport {
            case .native, .nativeTwoLoops, .nativeHTTP2:
                // InterceptorsAndTheirOrder.md: "One an interceptor removes stays removed."
                #expect(recorded.headers.values(for: "Accept-Encoding").isEmpty)
                #expect(Self.wire(recorded.headers) == Self.wire(sent.headers))
            case .urlSession:
                // InterceptorsAndTheirOrder.md: "URLSession adds one of these again if an interceptor removes it."
                #expect(!recorded.headers.values(for: "Accept-Encoding").isEmpty)
            }
        }

        @Test("URLSession's session-wide additional headers are seen by the interceptors too")
        func sessionAdditionalHeaders() async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse())
            let session = URLSessionHTTPClient.defaultSessionConfiguration()
            session.httpAdditionalHeaders = ["X-Session": "s1", "User-Agent": "session-agent"]
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: URLSessionHTTPClient(sessionConfiguration: session),
                configuration: .init(maxRetries: 0, validation: .acceptAll))
            let seen = Recorder<HTTPRequest>()
            apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

            _ = try await apiClient.GET("/s").get()

            let recorded = try await server.takeRequest()
            let sent = try #require(seen.values.first)
            #expect(sent.headers["X-Session"] == "s1")
            #expect(sent.headers.values(for: "User-Agent") == ["session-agent"])
            #expect(Self.wire(recorded.headers) == Self.wire(sent.headers))
        }
    }
}
