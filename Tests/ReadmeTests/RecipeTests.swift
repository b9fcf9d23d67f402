import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import Foundation
import Testing

/// A transport the recipes run on.
enum RecipeTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case native

    var testDescription: String { rawValue }

    func make() -> any HTTPClient {
        switch self {
        case .urlSession: return URLSessionHTTPClient()
        case .native: return NativeHTTPClient()
        }
    }
}

/// Checks signatures the way a server does: from the request as it arrived.
enum SignatureCheck {
    static let keyID = "AKIDEXAMPLE"
    static let secret = Data("wJalrXUtnFEMI".utf8)
    static let signer = HMACRequestSigner(keyID: keyID, secret: secret)

    /// The `Key=Value` parts of an `EXAMPLE-HMAC` `Authorization` header.
    static func parts(of authorization: String) throws -> [String: String] {
        let scheme = "EXAMPLE-HMAC "
        try #require(authorization.hasPrefix(scheme))
        var parts: [String: String] = [:]
        for part in authorization.dropFirst(scheme.count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            try #require(pair.count == 2)
            parts[String(pair[0])] = String(pair[1])
        }
        return parts
    }

    /// Whether `recorded` carries a valid signature by ``secret`` over what the server received (its `Host`
    /// included), and a body hash that matches the body received (or `UNSIGNED-PAYLOAD` when `unsignedPayload`).
    static func verify(_ recorded: RecordedRequest, unsignedPayload: Bool = false) throws {
        let parts = try parts(of: try #require(recorded.header(.authorization)))
        #expect(parts["Credential"] == keyID)
        let signedNames = try #require(parts["SignedHeaders"]).split(separator: ";").map(String.init)
        #expect(signedNames.contains("host"))
        #expect(signedNames.contains("x-content-sha256"))
        let payloadHash = try #require(recorded.header("X-Content-SHA256"))
        if unsignedPayload {
            #expect(payloadHash == HMACRequestSigner.unsignedPayload)
        } else {
            #expect(payloadHash == PlaceholderSHA256.hash(data: recorded.body))
        }
        let text = HMACRequestSigner.canonicalRequest(
            method: recorded.method.rawValue,
            percentEncodedPath: recorded.path,
            percentEncodedQuery: recorded.query,
            headers: recorded.headers,
            signedNames: signedNames,
            payloadHash: payloadHash
        )
        #expect(parts["Signature"] == PlaceholderHMAC.authenticationCode(for: Data(text.utf8), key: secret))
    }
}

@Suite("The signing recipe (SigningRequests.md)", .serialized, .timeLimit(.minutes(1)))
struct SigningRecipeTests {
    private static func client(
        _ transport: RecipeTransport, _ server: MockWebServer, signer: HMACRequestSigner = SignatureCheck.signer
    ) -> BothamAPIClient {
        server.setDefaultResponse(MockResponse())
        let apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: transport.make())
        apiClient.interceptors.append(signer)
        return apiClient
    }

    @Test(
        "A signed request verifies on the server from what it received: method, path, query, headers and body",
        arguments: RecipeTransport.allCases)
    func signaturesVerifyOnTheServer(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let apiClient = Self.client(transport, server)

        _ = try await apiClient.GET("/items/a%20b", parameters: ["z": "1", "a": "x y"], headers: ["X-Trace": "7"]).get()
        _ = try await apiClient.POST("/items", body: ["name": "botham", "tags": ["a", "b"]]).get()
        _ = try await apiClient.DELETE("/items/1").get()

        let get = try await server.takeRequest()
        try SignatureCheck.verify(get)
        let getNames = try SignatureCheck.parts(of: try #require(get.header(.authorization)))["SignedHeaders"]
        // Every field sent is signed, the transport's own included (added at preparation, so the signer saw them):
        // what the server received is exactly the signed set plus the framing fields.
        let signed = Set((getNames ?? "").split(separator: ";").map(String.init))
        #expect(signed.isSuperset(of: ["host", "x-content-sha256", "x-signature-date", "x-trace", "accept-encoding"]))
        let framing: Set<String> = ["connection", "content-length", "transfer-encoding", "authorization"]
        let received = Set(get.headers.fields.map { $0.name.canonicalName.lowercased() })
        #expect(received.subtracting(framing) == signed)
        let post = try await server.takeRequest()
        try SignatureCheck.verify(post)
        // Preparation encoded the dictionary and set Content-Type before the signer ran: both are signed.
        #expect(post.bodyAsString == #"{"name":"botham","tags":["a","b"]}"#)
        let postNames = try SignatureCheck.parts(of: try #require(post.header(.authorization)))["SignedHeaders"]
        #expect(postNames?.contains("content-type") == true)
        try SignatureCheck.verify(try await server.takeRequest())
    }

    @Test(
        "A file body is hashed by reading the file, and the hash matches the bytes the server received",
        arguments: RecipeTransport.allCases)
    func fileBodiesAreHashedFromTheFile(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let apiClient = Self.client(transport, server)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("signed-\(UUID().uuidString).bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        _ = try await apiClient.upload("/blobs/1", method: .put, fromFile: file, contentType: "application/x-test")
            .get()

        let recorded = try await server.takeRequest()
        #expect(recorded.method == .put)
        #expect(recorded.body == bytes)
        try SignatureCheck.verify(recorded)
    }

    @Test("A streamed body is signed as UNSIGNED-PAYLOAD", arguments: RecipeTransport.allCases)
    func streamedBodiesAreUnsigned(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let apiClient = Self.client(transport, server)
        let chunks = [Data("one,".utf8), Data("two".utf8)]
        let stream = AsyncStream<Data> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }

        _ = try await apiClient.POST("/ingest", body: .stream(length: 7, contentType: "text/plain", stream)).get()

        let recorded = try await server.takeRequest()
        #expect(recorded.bodyAsString == "one,two")
        try SignatureCheck.verify(recorded, unsignedPayload: true)
    }

    @Test(
        "Every attempt goes through the signer again: a retried call is signed on each send",
        arguments: RecipeTransport.allCases)
    func retriesAreSignedAgain(transport: RecipeTransport) async throws {
        struct RetryOn401: BothamResponseInterceptor {
            func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
                response.statusCode == 401 ? .retry : .proceed(response)
            }
        }
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [MockResponse(statusCode: 401), MockResponse()])
        // The signer's clock moves a minute on every reading: a request that was signed again carries a new
        // `X-Signature-Date`, one merely sent again would carry the first one.
        let readings = Lock(0)
        var signer = SignatureCheck.signer
        signer.now = {
            let reading = readings.withLock { count in
                count += 1
                return count
            }
            return Date(timeIntervalSince1970: 1_700_000_000 + 60 * Double(reading))
        }
        let apiClient = Self.client(transport, server, signer: signer)
        apiClient.responseInterceptors.append(RetryOn401())

        _ = try await apiClient.GET("/items").get()

        let first = try await server.takeRequest()
        let second = try await server.takeRequest()
        try SignatureCheck.verify(first)
        try SignatureCheck.verify(second)
        #expect(readings.withLock { $0 } == 2, "the signer ran once per attempt")
        let firstDate = try #require(first.header("X-Signature-Date"))
        let secondDate = try #require(second.header("X-Signature-Date"))
        #expect(firstDate != secondDate, "the retry carried the first attempt's signature")
        #expect(first.header(.authorization) != second.header(.authorization))
    }

    @Test(
        "A redirect is followed inside the transport: the signer runs once and the next hop carries its headers",
        arguments: RecipeTransport.allCases)
    func redirectsAreNotSignedAgain(transport: RecipeTransport) async throws {
        actor Count {
            var value = 0
            func increment() { value += 1 }
        }
        struct Counting: HTTPInterceptor {
            let count: Count
            func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext)
                async throws -> HTTPResponse
            {
                await count.increment()
                return try await next(request)
            }
        }
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [MockResponse(statusCode: 302).withHeader(.location, "/b"), MockResponse()])
        let apiClient = Self.client(transport, server)
        let signs = Count()
        apiClient.interceptors.append(Counting(count: signs))

        _ = try await apiClient.GET("/a").get()

        #expect(await signs.value == 1)
        let first = try await server.takeRequest()
        let second = try await server.takeRequest()
        #expect(second.path == "/b")
        #expect(second.header(.authorization) == first.header(.authorization))
    }
}

@Suite("The per-service client recipes (PerServiceClientRecipes.md)", .serialized, .timeLimit(.minutes(1)))
struct RecipeTests {
    private static func listing(_ keys: [String], nextToken: String?) -> MockResponse {
        let contents = keys.map {
            "<Contents><Key>\($0)</Key><Size>\($0.count)</Size><ETag>\"e-\($0)\"</ETag></Contents>"
        }
        let truncation =
            nextToken.map { "<IsTruncated>true</IsTruncated><NextContinuationToken>\($0)</NextContinuationToken>" }
            ?? "<IsTruncated>false</IsTruncated>"
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\
            <Name>backups</Name><KeyCount>\(keys.count)</KeyCount>\(truncation)\(contents.joined())</ListBucketResult>
            """
        return MockResponse().withHeader(.contentType, "application/xml").withBody(xml)
    }

    private static func store(_ transport: RecipeTransport, _ server: MockWebServer) -> ObjectStorageClient {
        ObjectStorageClient(
            endpoint: server.baseURL.absoluteString, bucket: "backups", signer: SignatureCheck.signer,
            httpClient: transport.make())
    }

    @Test(
        "The object-storage client lists every object over two pages, sending the continuation token",
        arguments: RecipeTransport.allCases)
    func listsAcrossPages(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(Self.listing(["2026/a", "2026/b"], nextToken: "t/1+2=="))
        server.enqueue(Self.listing(["2026/c"], nextToken: nil))

        var keys: [String] = []
        for try await object in Self.store(transport, server).objects(prefix: "2026/") {
            keys.append(object.key)
        }

        #expect(keys == ["2026/a", "2026/b", "2026/c"])
        let first = try await server.takeRequest()
        #expect(first.path == "/backups")
        #expect(first.queryItems.map(\.name) == ["list-type", "prefix"])
        try SignatureCheck.verify(first)
        let second = try await server.takeRequest()
        #expect(second.queryItems.first { $0.name == "continuation-token" }?.value == "t/1+2==")
        try SignatureCheck.verify(second)
        #expect(server.requestCount == 2)
    }

    @Test("A listing page that is not XML ends the call with parsingError carrying the body")
    func malformedListing() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody(#"{"objects": []}"#))

        let store = Self.store(.native, server)
        let error = await #expect(throws: APIClientError.self) { try await store.apiClient.value(for: store.page()) }

        guard case .parsingError(let body, _) = error else {
            Issue.record("expected parsingError, got \(String(describing: error))")
            return
        }
        #expect(body == Data(#"{"objects": []}"#.utf8))
    }

    @Test(
        "The object-storage client uploads a file with a signed PUT and downloads an object into a file",
        arguments: RecipeTransport.allCases)
    func uploadsAndDownloadsFiles(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("archive.tar")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: archive)
        let store = Self.store(transport, server)

        server.enqueue(MockResponse().withHeader(.eTag, "\"v1\""))
        let eTag = try await store.upload(fileAt: archive, as: "2026/archive.tar", contentType: "application/x-tar")
        server.enqueue(MockResponse().withBody(Data("restored".utf8)))
        let restored = try await store.download("2026/archive.tar", to: folder.appendingPathComponent("copy.tar"))

        #expect(eTag == "\"v1\"")
        let upload = try await server.takeRequest()
        #expect(upload.method == .put)
        #expect(upload.path == "/backups/2026/archive.tar")
        #expect(upload.header(.contentType) == "application/x-tar")
        #expect(upload.body == bytes)
        try SignatureCheck.verify(upload)
        #expect(try Data(contentsOf: restored) == Data("restored".utf8))
        let download = try await server.takeRequest()
        #expect(download.method == .get)
        #expect(download.path == "/backups/2026/archive.tar")
    }

    @Test(
        "A conditional GET answered 304 is notModified, and one answered 200 is modified with the new ETag",
        arguments: RecipeTransport.allCases)
    func conditionalGet(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 304).withHeader(.eTag, "\"v1\""))
        server.enqueue(MockResponse().withHeader(.eTag, "\"v2\"").withBody("new"))
        let store = Self.store(transport, server)

        let unchanged = try await store.object("a.txt", ifNoneMatch: "\"v1\"")
        let changed = try await store.object("a.txt", ifNoneMatch: "\"v1\"")

        #expect(unchanged == .notModified)
        #expect(changed == .modified(Data("new".utf8), eTag: "\"v2\""))
        #expect(try await server.takeRequest().header(.ifNoneMatch) == "\"v1\"")
    }

    @Test(
        "The registry client follows relative and absolute Locations through a chunked upload, queries kept as sent",
        arguments: RecipeTransport.allCases)
    func chunkedUploadFollowsLocations(transport: RecipeTransport) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let uploads = "/v2/library/hello/blobs/uploads"
        let blob = Data("0123456789".utf8)
        let digest = RegistryClient.digest(of: blob)
        server.enqueue(contentsOf: [
            MockResponse(statusCode: 202).withHeader(.location, "\(uploads)/u1?_state=a%2Bb%3D%3D"),
            MockResponse(statusCode: 202).withHeader(
                .location, server.url("\(uploads)/u1?_state=c%2Fd").absoluteString),
            MockResponse(statusCode: 202).withHeader(.location, "u1?_state=e&n=2"),
            MockResponse(statusCode: 202).withHeader(.location, "\(uploads)/u1?_state=f%20g"),
            MockResponse(statusCode: 201).withHeader("Docker-Content-Digest", digest),
        ])
        let registry = RegistryClient(
            endpoint: server.baseURL.absoluteString, repository: "library/hello", httpClient: transport.make())

        let uploaded = try await registry.uploadBlob(blob, chunkSize: 4)

        #expect(uploaded == digest)
        let start = try await server.takeRequest()
        #expect(start.method == .post)
        #expect(start.target == "\(uploads)/")
        let expected = [
            ("\(uploads)/u1?_state=a%2Bb%3D%3D", "0-3", "0123"),
            ("\(uploads)/u1?_state=c%2Fd", "4-7", "4567"),
            ("\(uploads)/u1?_state=e&n=2", "8-9", "89"),
        ]
        for (target, range, body) in expected {
            let chunk = try await server.takeRequest()
            #expect(chunk.method == .patch)
            #expect(chunk.target == target)
            #expect(chunk.header("Content-Range") == range)
            #expect(chunk.header(.contentType) == "application/octet-stream")
            #expect(chunk.bodyAsString == body)
        }
        let finish = try await server.takeRequest()
        #expect(finish.method == .put)
        #expect(finish.target.hasPrefix("\(uploads)/u1?_state=f%20g&digest="))
        #expect(finish.queryItems.last?.value == digest)
    }

    @Test("The registry client reads blob existence from HEAD and the manifest digest from Docker-Content-Digest")
    func blobsAndManifests() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [
            MockResponse(), MockResponse(statusCode: 404),
            MockResponse(statusCode: 201).withHeader("Docker-Content-Digest", "sha256:abc"),
        ])
        let registry = RegistryClient(
            endpoint: server.baseURL.absoluteString, repository: "library/hello", httpClient: NativeHTTPClient())

        #expect(try await registry.hasBlob("sha256:1"))
        #expect(try await registry.hasBlob("sha256:2") == false)
        #expect(try await registry.pushManifest(Data("{}".utf8), tag: "latest") == "sha256:abc")
        #expect(try await server.takeRequest().method == .head)
        _ = try await server.takeRequest()
        let manifest = try await server.takeRequest()
        #expect(manifest.target == "/v2/library/hello/manifests/latest")
        #expect(manifest.header(.contentType) == "application/vnd.oci.image.manifest.v1+json")
    }
}

@Suite("The README's streaming recipe", .timeLimit(.minutes(1)))
struct StreamingRecipeTests {
    private struct SentChat: Decodable {
        let stream: Bool
        let messages: [[String: String]]
    }

    private static func chunk(_ text: String) -> MockServerSentEvent {
        MockServerSentEvent(data: #"{"choices":[{"delta":{"content":"\#(text)"}}]}"#)
    }

    @Test("streamAnswer posts the prompt as JSON and joins the deltas up to [DONE]")
    func completeAnswer() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(
            .method(.post) && .path("/v1/chat/completions"),
            with: .serverSentEvents([Self.chunk("Hel"), Self.chunk("lo"), MockServerSentEvent(data: "[DONE]")]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://llm.example.com", httpClient: stubClient)

        #expect(try await streamAnswer(to: "hi", apiClient: apiClient) == "Hello")
        let sent = try #require(stubClient.receivedRequests.first)
        let body = try JSONDecoder().decode(SentChat.self, from: try #require(try sent.bodyData()))
        #expect(body.stream)
        #expect(body.messages == [["role": "user", "content": "hi"]])
    }

    @Test("streamAnswer reports a stream that ends before [DONE] as an error carrying the partial answer")
    func streamEndingBeforeDoneIsAnError() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .serverSentEvents([Self.chunk("Hel"), Self.chunk("lo")]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://llm.example.com", httpClient: stubClient)

        do {
            let answer = try await streamAnswer(to: "hi", apiClient: apiClient)
            Issue.record("a stream without [DONE] returned \(answer)")
        } catch let error as IncompleteAnswer {
            #expect(error.partial == "Hello")
        }
    }

    @Test("streamAnswer passes on a dropped connection as the transport's error")
    func droppedStreamThrows() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(
            with: .serverSentEvents(
                [Self.chunk("Hel")], end: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))))
        )
        let apiClient = BothamAPIClient(baseEndpoint: "https://llm.example.com", httpClient: stubClient)

        await #expect(throws: APIClientError.self) { try await streamAnswer(to: "hi", apiClient: apiClient) }
    }
}
