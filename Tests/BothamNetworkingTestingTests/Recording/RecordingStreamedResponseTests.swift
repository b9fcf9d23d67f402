import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RecordingHTTPClient, streamed responses chunk by chunk", .timeLimit(.minutes(1)))
struct RecordingStreamedResponseTests: RecordingSuite {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("stream.har") }
    let server = StubHTTPClient()
    let baseEndpoint = "https://api.example.com/v1"

    /// The chunks of the streamed body of `GET path`, as text.
    func chunks(of path: String, from apiClient: BothamAPIClient) async throws -> [String] {
        let response = try await apiClient.stream(.get, path)
        var chunks: [String] = []
        for try await chunk in response.body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        return chunks
    }

    /// Records `GET /feed` streamed in `parts`, then sets the entry's head time and its chunks' arrival times.
    func recordFeed(_ parts: [String], time: Double = 0, receive: Double = 0, arrivals: [Double] = []) async throws {
        server.stub(with: .streamed(chunks: parts.map { StubChunk($0) }))
        _ = try await chunks(of: "/feed", from: client(RecordingHTTPClient(.record, file: file, wrapping: server)))
        guard !arrivals.isEmpty else { return }
        var edited = try archive()
        edited.log.entries[0].time = time
        edited.log.entries[0].timings.receive = receive
        let sizes = try #require(edited.log.entries[0].response.content.chunks).map(\.size)
        edited.log.entries[0].response.content.chunks = zip(sizes, arrivals).map {
            HTTPArchive.Chunk(size: $0, time: $1)
        }
        try edited.encoded().write(to: file)
    }

    @Test("A streamed response is recorded with each chunk's size and arrival time, in HAR's custom _chunks member")
    func recordsChunks() async throws {
        // The second chunk 40 ms of real time after the first.
        let realTime = StubHTTPClient(latency: .clock)
        realTime.stub(with: .streamed(chunks: [StubChunk("one "), StubChunk("two ", after: .milliseconds(40))]))
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: realTime))

        #expect(try await chunks(of: "/feed", from: apiClient) == ["one ", "two "])

        let content = try #require(try archive().log.entries.first).response.content
        let recorded = try #require(content.chunks)
        #expect(recorded.map(\.size) == [4, 4])
        // The stub's 40 ms start before the head reaches the recorder: a loaded machine may take a few off.
        #expect(recorded[1].time >= 20, "the second chunk came 40 ms after the first: \(recorded)")
        #expect(recorded[0].time < recorded[1].time)
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text.contains("\"_chunks\""))
        #expect(HARSchema.problems(try Data(contentsOf: file)).isEmpty)
    }

    @Test("A recorded stream replays to a streaming call in its chunks, at once when timing is not replayed")
    func replaysChunks() async throws {
        try await recordFeed(["data: one\n\n", "data: two\n\n", "data: three\n\n"])
        let clock = VirtualClock(sleeping: .advancesClock)

        let replayed = try await chunks(of: "/feed", from: client(RecordingHTTPClient(replaying: file), clock: clock))

        #expect(replayed == ["data: one\n\n", "data: two\n\n", "data: three\n\n"])
        #expect(clock.sleeps.isEmpty)
    }

    @Test("With timing replayed, the head waits its scaled time and each chunk comes at its scaled arrival")
    func replaysChunkTimes() async throws {
        try await recordFeed(["one ", "two ", "three"], time: 500, receive: 300, arrivals: [0, 100, 300])
        let clock = VirtualClock(sleeping: .advancesClock)
        let options = RecordingOptions(timing: .recorded(scale: 0.5))
        let apiClient = client(RecordingHTTPClient(replaying: file, options: options), clock: clock)

        let response = try await apiClient.stream(.get, "/feed")
        #expect(clock.elapsed == .milliseconds(100), "the head: (500 - 300) ms, scaled by 0.5")
        var chunks: [String] = []
        for try await chunk in response.body { chunks.append(String(decoding: chunk, as: UTF8.self)) }

        #expect(chunks == ["one ", "two ", "three"])
        // The head's wait, then each chunk's wait from the one before: at 0, 50 and 150 ms after the head.
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(50), .milliseconds(100)])
        #expect(clock.elapsed == .milliseconds(250))
    }

    @Test("A recorded stream's head time beyond the request's timeout times out")
    func headBeyondTimeout() async throws {
        try await recordFeed(["one ", "two "], time: 900, receive: 100, arrivals: [0, 100])
        let clock = VirtualClock(sleeping: .advancesClock)
        let options = RecordingOptions(timing: .recorded(scale: 1))
        let apiClient = client(RecordingHTTPClient(replaying: file, options: options), clock: clock)
        let request = apiClient.request(.get, "/feed").withTimeout(.milliseconds(500))
            .withResponseDestination(.stream)

        let result = await apiClient.send(request)

        guard case .failure(.timeout) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(clock.elapsed == .milliseconds(500))
    }

    @Test("A redacted stream keeps the recorded cuts as far as they go and ends with the rest of its body")
    func redactedBodyKeepsItsCuts() async throws {
        server.stub(
            with: .streamed(
                headers: ["Content-Type": "application/json"],
                chunks: [StubChunk(#"{"token":"#), StubChunk(#""abcdefghijklmnop","n":1}"#)]))
        let options = RecordingOptions(redactor: Redactor(bodyFieldNames: ["token"]))
        let recorder = client(RecordingHTTPClient(.record, file: file, wrapping: server, options: options))
        _ = try await chunks(of: "/token", from: recorder)

        let replayed = try await chunks(of: "/token", from: client(RecordingHTTPClient(replaying: file)))

        #expect(replayed.count == 2)
        #expect(replayed.first == #"{"token":"#)
        let body = try JSONSerialization.jsonObject(with: Data(replayed.joined().utf8)) as? [String: Any]
        #expect(body?["token"] as? String == "REDACTED")
        #expect(body?["n"] as? Int == 1)
    }

    @Test("A replayed stream's download progress moves with its chunks")
    func progressFollowsChunks() async throws {
        try await recordFeed(["12345", "67890"])
        let progress = Lock<[Int64]>([])
        let options = RecordingOptions(replaysProgress: true)
        let apiClient = client(RecordingHTTPClient(replaying: file, options: options))

        let response = try await TransferProgress.Reporter.$current.withValue(
            TransferProgress.Reporter { update in
                if update.direction == .download { progress.withLock { $0.append(update.completedBytes) } }
            }
        ) { try await apiClient.stream(.get, "/feed") }
        var received = 0
        for try await chunk in response.body { received += chunk.count }

        #expect(received == 10)
        #expect(progress.withLock { $0 } == [5, 10])
    }
}
