import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RecordingHTTPClient", .timeLimit(.minutes(1)))
struct RecordingHTTPClientTests: RecordingSuite {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("recording.har") }
    let server = StubHTTPClient()
    let baseEndpoint = "https://api.example.com/v1"

    func text(of url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// The error a replay fails with, or `nil` when it did not fail with a `RecordingError`.
    func recordingError(_ result: Result<HTTPResponse, APIClientError>) -> RecordingError? {
        guard case .failure(.httpClientError(let underlying)) = result else { return nil }
        return underlying as? RecordingError
    }

    @Test("Record mode passes calls through and writes HAR 1.2 with headers, query items, post data and timings")
    func recordsHAR() async throws {
        server.stub(.method(.get), with: .json(["id": 1], headers: ["X-Rate": "10"]))
        server.stub(.method(.post), with: .text("created", statusCode: 201))
        let recorder = RecordingHTTPClient(.record, file: file, wrapping: server)
        let apiClient = client(recorder)

        let got = try await apiClient.GET("/users", parameters: ["page": "2"], headers: ["Accept": "x/y"]).get()
        let posted = try await apiClient.POST("/users", body: ["name": "Jane"]).get()

        #expect(got.statusCode == 200 && got.headers["X-Rate"] == "10")
        #expect(posted.statusCode == 201 && posted.body == Data("created".utf8))
        #expect(server.receivedRequests.count == 2)
        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(data) == [])
        let entries = try archive(file).log.entries
        try #require(entries.count == 2)
        #expect(entries[0].request.method == "GET")
        #expect(entries[0].request.url == "https://api.example.com/v1/users?page=2")
        #expect(entries[0].request.queryString == [HTTPArchive.NameValue(name: "page", value: "2")])
        #expect(entries[0].request.headers.contains(HTTPArchive.NameValue(name: "Accept", value: "x/y")))
        #expect(entries[0].response.status == 200)
        #expect(entries[0].response.content.text == #"{"id":1}"#)
        #expect(entries[0].response.content.mimeType == "application/json")
        #expect(entries[0].response.headers.contains(HTTPArchive.NameValue(name: "X-Rate", value: "10")))
        #expect(entries[0].timings.wait >= 0 && entries[0].time >= entries[0].timings.wait)
        #expect(entries[1].request.postData?.text == #"{"name":"Jane"}"#)
        #expect(entries[1].request.postData?.mimeType == "application/json")
        #expect(entries[1].response.status == 201)
    }

    @Test("The schema check rejects a document that lacks what HAR 1.2 requires")
    func schemaCheckCanFail() {
        let broken = Data(#"{"log":{"version":"1.2","creator":{"name":"x"},"entries":[{"time":"slow"}]}}"#.utf8)
        let problems = HARSchema.problems(broken)
        #expect(problems.contains("log.creator.version is not a string"))
        #expect(problems.contains("log.entries[0].time is not a number"))
        #expect(problems.contains("log.entries[0].request is not an object"))
        #expect(HARSchema.problems(Data("[]".utf8)) == ["the document is not a JSON object"])
        let noText = Data(
            #"{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[{"request":{"postData":{"mimeType":""}}}]}}"#
                .utf8)
        #expect(HARSchema.problems(noText).contains("log.entries[0].request.postData: neither text nor params"))
    }

    @Test("A recording holds none of the secrets the redactor names, in headers, query, JSON and form bodies")
    func recordingRedacts() async throws {
        let secret = "s3cr3t-\(UUID().uuidString)"
        server.stub(
            with: .json(
                ["access_token": .string(secret), "pin": .string(secret), "user": "jane"],
                headers: ["Set-Cookie": "session=\(secret)"]))
        let redactor = Redactor(
            headerNames: ["X-Customer"], queryParameterNames: ["session"], bodyFieldNames: ["pin"])
        let recorder = RecordingHTTPClient(
            .record, file: file, wrapping: server, options: RecordingOptions(redactor: redactor))
        let apiClient = client(recorder)

        let response = try await apiClient.POST(
            "/login", parameters: ["session": secret, "page": "1"],
            headers: ["Authorization": "Bearer \(secret)", "X-Customer": secret],
            body: ["pin": .string(secret), "password": .string(secret), "user": "jane"]
        ).get()
        _ = try await apiClient.POST("/form", body: .form(["pin": secret, "user": "jane"])).get()
        // A redirect to a pre-signed URL, recorded as it came (the transport did not follow it).
        server.stub(
            .path("/moved"),
            with: .response(
                statusCode: 302,
                headers: [
                    "Location": "https://cdn.example.com/o?X-Amz-Signature=\(secret)&part=1",
                    "Content-Location": "/o?access_token=\(secret)#top",
                ]))
        _ = try await apiClient.GET("/moved").get()

        #expect(String(decoding: response.body, as: UTF8.self).contains(secret), "the caller gets the real body")
        let recorded = try text(of: file)
        #expect(!recorded.contains(secret))
        #expect(recorded.contains("REDACTED"))
        #expect(recorded.contains("jane"), "what is not secret stays")
        #expect(recorded.contains("page"))
        #expect(recorded.contains("X-Amz-Signature=REDACTED&part=1"), "the redirect URL is kept, its secret is not")
        #expect(recorded.contains("/o?access_token=REDACTED#top"))
    }

    @Test("Replay answers from the file without calling the wrapped transport")
    func replays() async throws {
        server.stub(.path("/users"), with: .json([["id": 1]]))
        server.stub(.path("/bytes"), with: .response(body: Data([0xFF, 0x00, 0xFE])))
        let recordingClient = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        _ = try await recordingClient.GET("/users").get()
        _ = try await recordingClient.GET("/bytes").get()
        #expect(try text(of: file).contains(#""encoding" : "base64""#))

        let offline = StubHTTPClient()
        let replayer = client(RecordingHTTPClient(.replay, file: file, wrapping: offline))
        let users = try await replayer.GET("/users").get()
        let bytes = try await replayer.GET("/bytes").get()

        #expect(users.statusCode == 200 && users.body == Data(#"[{"id":1}]"#.utf8))
        #expect(users.headers[.contentType] == "application/json")
        #expect(bytes.body == Data([0xFF, 0x00, 0xFE]))
        #expect(offline.receivedRequests.isEmpty)
        let replayOnly = client(RecordingHTTPClient(replaying: file))
        #expect(try await replayOnly.GET("/users").get().body == users.body)
    }

    @Test("Replay fails closed with a diff against the closest recorded request")
    func replayFailsClosedWithDiff() async throws {
        server.stub(with: .text("ok"))
        let recordingClient = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        _ = try await recordingClient.GET("/users", parameters: ["page": "2"]).get()
        _ = try await recordingClient.DELETE("/orders/1").get()

        let replayer = client(RecordingHTTPClient(replaying: file))
        let error = try #require(recordingError(await replayer.GET("/users", parameters: ["page": "3"])))
        guard case .noMatch(let mismatch) = error else {
            Issue.record("expected noMatch, got \(error)")
            return
        }
        #expect(mismatch.closest == "GET https://api.example.com/v1/users?page=2")
        #expect(mismatch.differences == ["- query page=2", "+ query page=3"])
        #expect(mismatch.recordedCount == 2)
        #expect(
            error.description == """
                RecordingHTTPClient: no recorded exchange matches GET https://api.example.com/v1/users?page=3
                closest of 2 recorded: GET https://api.example.com/v1/users?page=2
                - query page=2
                + query page=3
                """)
        let wrongMethod = try #require(recordingError(await replayer.POST("/orders/1")))
        #expect(wrongMethod.description.contains("- method DELETE\n+ method POST"))
    }

    @Test("Replay of a file that does not exist fails with missingRecording")
    func missingFile() async throws {
        let error = try #require(recordingError(await client(RecordingHTTPClient(replaying: file)).GET("/x")))
        guard case .missingRecording(let url) = error else {
            Issue.record("expected missingRecording, got \(error)")
            return
        }
        #expect(url == file)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not HAR".utf8).write(to: file)
        let unreadable = try #require(recordingError(await client(RecordingHTTPClient(replaying: file)).GET("/x")))
        guard case .unreadableRecording = unreadable else {
            Issue.record("expected unreadableRecording, got \(unreadable)")
            return
        }
    }

    @Test("Matching ignores the query items it is told to, and compares headers and bodies only when asked")
    func configurableMatching() async throws {
        server.stub(with: .text("ok"))
        let recordingClient = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        _ = try await recordingClient.POST(
            "/search", parameters: ["q": "swift", "nonce": "1"], headers: ["Accept": "a/b"], body: ["x": 1, "y": 2]
        ).get()

        let lenient = client(
            RecordingHTTPClient(
                replaying: file, options: RecordingOptions(matching: .init(ignoredQueryItems: ["nonce"]))))
        #expect(
            try await lenient.POST("/search", parameters: ["nonce": "2", "q": "swift"], body: ["x": 9]).get().statusCode
                == 200, "order of items, ignored items, headers and body do not count")
        #expect(recordingError(await lenient.POST("/search", parameters: ["q": "rust", "nonce": "1"])) != nil)

        let strict = client(
            RecordingHTTPClient(
                replaying: file,
                options: RecordingOptions(
                    matching: .init(headers: ["Accept"], body: true, ignoredQueryItems: ["nonce"]))
            ))
        #expect(
            try await strict.POST(
                "/search", parameters: ["q": "swift"], headers: ["Accept": "a/b"], body: ["y": 2, "x": 1]
            )
            .get().statusCode == 200, "JSON bodies compare as values")
        let wrongHeader = try #require(
            recordingError(
                await strict.POST(
                    "/search", parameters: ["q": "swift"], headers: ["Accept": "c/d"], body: ["x": 1, "y": 2])))
        #expect(wrongHeader.description.contains("- header Accept: a/b\n+ header Accept: c/d"))
        let wrongBody = try #require(
            recordingError(
                await strict.POST("/search", parameters: ["q": "swift"], headers: ["Accept": "a/b"], body: ["x": 3])))
        #expect(wrongBody.description.contains(#"- body {"x":1,"y":2}"#))
        #expect(wrongBody.description.contains(#"+ body {"x":3}"#))
    }

    @Test("Requests that differ only in a redacted secret match: both are recorded as REDACTED")
    func redactedValuesMatch() async throws {
        server.stub(with: .text("ok"))
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: server))
            .GET("/me", parameters: ["access_token": "old"]).get()
        let replayer = client(RecordingHTTPClient(replaying: file))
        #expect(try await replayer.GET("/me", parameters: ["access_token": "new"]).get().body == Data("ok".utf8))
    }

    @Test("Repeated requests replay their recorded answers in order, then the last repeats")
    func repeatedRequestsInOrder() async throws {
        server.stub(.path("/poll"), with: .text("pending"), .text("done"))
        let recordingClient = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        _ = try await recordingClient.GET("/poll").get()
        _ = try await recordingClient.GET("/poll").get()

        let replayer = client(RecordingHTTPClient(replaying: file))
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await replayer.GET("/poll").get().body.utf8Text) }
        #expect(answers == ["pending", "done", "done"])
    }

    @Test("Record-if-missing records on the first run and replays on the next")
    func recordIfMissing() async throws {
        server.stub(.path("/a"), with: .text("a"))
        server.stub(.path("/b"), with: .text("b"))
        let first = client(RecordingHTTPClient(.recordIfMissing, file: file, wrapping: server))
        #expect(try await first.GET("/a").get().body.utf8Text == "a")
        #expect(server.receivedRequests.count == 1)

        let second = client(RecordingHTTPClient(.recordIfMissing, file: file, wrapping: server))
        #expect(try await second.GET("/a").get().body.utf8Text == "a")
        #expect(server.receivedRequests.count == 1, "a recorded exchange is replayed")
        #expect(try await second.GET("/b").get().body.utf8Text == "b")
        #expect(server.receivedRequests.count == 2, "a missing one is recorded")
        #expect(
            try archive(file).log.entries.map(\.request.url).map { $0.hasSuffix("/a") || $0.hasSuffix("/b") } == [
                true, true,
            ])
    }

    @Test("Concurrent calls each add their exchange and the file is always a whole archive")
    func concurrentRecording() async throws {
        server.stub(with: .text("ok"))
        let recorder = RecordingHTTPClient(.record, file: file, wrapping: server)
        let apiClient = client(recorder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = try await apiClient.GET("/item/\(index)").get() }
            }
            try await group.waitForAll()
        }
        let entries = try archive(file).log.entries
        #expect(entries.count == 20)
        #expect(Set(entries.map(\.request.url)).count == 20)
        #expect(try recorder.entries.count == 20)
    }

    @Test("A streamed response is passed on chunk by chunk and recorded whole when it ends")
    func streamedResponse() async throws {
        server.stub(with: .streamed(chunks: [StubChunk("one "), StubChunk("two "), StubChunk("three")]))
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        let response = try await apiClient.stream(.get, "/feed")
        var chunks: [String] = []
        for try await chunk in response.body { chunks.append(chunk.utf8Text) }
        #expect(chunks.joined() == "one two three")
        #expect(chunks.count == 3)
        let entry = try #require(try archive(file).log.entries.first)
        #expect(entry.response.content.text == "one two three")

        let replayed = try await client(RecordingHTTPClient(replaying: file)).stream(.get, "/feed")
        var body = Data()
        for try await chunk in replayed.body { body.append(chunk) }
        #expect(body.utf8Text == "one two three")
    }

    @Test("A file response body is recorded from its file and replayed to the caller's file")
    func fileBodies() async throws {
        let upload = folder.appendingPathComponent("upload.bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("file contents".utf8).write(to: upload)
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: FileWritingTransport()))
        _ = try await apiClient.upload("/upload", fromFile: upload, contentType: "text/plain").get()
        let downloaded = try await apiClient.download("/report", to: .file(folder.appendingPathComponent("a.txt")))
            .get()
        #expect(try Data(contentsOf: try #require(downloaded.bodyFileURL)).utf8Text == "report body")

        let entries = try archive(file).log.entries
        try #require(entries.count == 2)
        #expect(entries[0].request.postData?.text == "file contents")
        #expect(entries[1].response.content.text == "report body")

        let replayer = client(RecordingHTTPClient(replaying: file))
        let target = folder.appendingPathComponent("b.txt")
        let replayed = try await replayer.download("/report", to: .file(target)).get()
        #expect(replayed.bodyFileURL == target)
        #expect(try Data(contentsOf: target).utf8Text == "report body")
    }

    @Test("A body larger than maximumBodySize is left out, and replaying it fails with bodyNotRecorded")
    func oversizedBody() async throws {
        server.stub(with: .response(body: Data(repeating: 7, count: 100)))
        let options = RecordingOptions(maximumBodySize: 10)
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: server, options: options)).GET("/big")
            .get()
        let content = try #require(try archive(file).log.entries.first).response.content
        #expect(content.text == nil && content.size == 100)
        #expect(content.comment?.contains("maximumBodySize") == true)
        let error = try #require(recordingError(await client(RecordingHTTPClient(replaying: file)).GET("/big")))
        guard case .bodyNotRecorded = error else {
            Issue.record("expected bodyNotRecorded, got \(error)")
            return
        }
    }

    @Test("Transport failures pass through and are not recorded")
    func failuresPassThrough() async throws {
        server.stub(with: .failure(.timeout))
        let result = await client(RecordingHTTPClient(.record, file: file, wrapping: server)).GET("/slow")
        guard case .failure(.timeout) = result else {
            Issue.record("expected the transport's timeout, got \(result)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("Recorded timing is replayed on the call's clock when asked, scaled, and bounded by the request's timeout")
    func timingReplay() async throws {
        server.stub(with: .text("ok").delayed(by: .milliseconds(1)))
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: server)).GET("/t").get()
        var archive = try archive(file)
        archive.log.entries[0].time = 500
        try archive.encoded().write(to: file)

        let clock = VirtualClock(sleeping: .advancesClock)
        let options = RecordingOptions(timing: .recorded(scale: 0.5))
        let replayer = client(RecordingHTTPClient(replaying: file, options: options), clock: clock)
        #expect(try await replayer.GET("/t").get().statusCode == 200)
        #expect(clock.sleeps == [.milliseconds(250)])

        let timed = replayer.request(.get, "/t").withTimeout(.milliseconds(100))
        guard case .failure(.timeout) = await replayer.send(timed) else {
            Issue.record("a recorded time beyond the timeout must time out")
            return
        }
        #expect(clock.sleeps == [.milliseconds(250), .milliseconds(100)])
        #expect(clock.elapsed == .milliseconds(350))
        #expect(
            try await client(RecordingHTTPClient(replaying: file), clock: clock)
                .GET("/t").get().statusCode == 200)
        #expect(clock.sleeps.count == 2, "immediate by default")
    }
}

extension Data {
    fileprivate var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

/// A transport that uploads file bodies by reading them and writes response bodies to the file destination it is
/// given, like the real transports.
private struct FileWritingTransport: HTTPClient {
    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard let destination = request.responseDestination.fileURL else {
            return HTTPResponse(statusCode: 200, body: Data("uploaded".utf8), request: request)
        }
        do {
            try Data("report body".utf8).write(to: destination)
        } catch {
            throw .httpClientError(underlying: error)
        }
        return HTTPResponse(
            statusCode: 200, headers: ["Content-Type": "text/plain"], request: request, bodyFileURL: destination)
    }
}

/// A transport whose responses carry the given timings, as a measuring transport's do.
private struct MeasuringTransport: HTTPClient {
    let timings: HTTPResponse.Timings?

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        HTTPResponse(statusCode: 200, body: Data("ok".utf8), request: request, timings: timings)
    }
}

@Suite("RecordingHTTPClient HAR timings", .timeLimit(.minutes(1)))
struct RecordingHARTimingsTests {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString).har")

    private func recordedTimings(_ timings: HTTPResponse.Timings?) async throws -> HTTPArchive.Timings {
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = RecordingHTTPClient(.record, file: file, wrapping: MeasuringTransport(timings: timings))
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com", path: "/")
        #expect(try await recorder.send(request).timings == timings)
        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(data) == [])
        return try #require(try HTTPArchive(data: data, from: file).log.entries.first).timings
    }

    @Test("The transport's measured phases fill HAR's dns, connect (TLS included), ssl, send, wait and receive")
    func measuredPhases() async throws {
        func phase(_ start: Int, _ end: Int) -> HTTPResponse.Timings.Phase {
            HTTPResponse.Timings.Phase(start: .milliseconds(start), end: .milliseconds(end))
        }
        let measured = HTTPResponse.Timings(
            dnsLookup: phase(0, 1), connect: phase(1, 3), tlsHandshake: phase(3, 6), requestSent: phase(6, 7),
            waiting: phase(7, 17), bodyReceived: phase(17, 20), reusedConnection: false)

        let har = try await recordedTimings(measured)

        #expect(har.dns == 1 && har.connect == 5 && har.ssl == 3, "\(har)")
        #expect(har.send == 1 && har.wait == 10 && har.receive == 3, "\(har)")
    }

    @Test("A reused connection records dns, connect and ssl as -1; a transport that measures nothing leaves them out")
    func notApplicable() async throws {
        let reused = HTTPResponse.Timings(
            requestSent: .init(start: .zero, end: .milliseconds(1)),
            waiting: .init(start: .milliseconds(1), end: .milliseconds(4)), reusedConnection: true)
        let har = try await recordedTimings(reused)
        #expect(har.dns == -1 && har.connect == -1 && har.ssl == -1)
        #expect(har.send == 1 && har.wait == 3)

        let unmeasured = try await recordedTimings(nil)
        #expect(unmeasured.dns == nil && unmeasured.connect == nil && unmeasured.ssl == nil)
        #expect(unmeasured.send == 0)
    }
}
