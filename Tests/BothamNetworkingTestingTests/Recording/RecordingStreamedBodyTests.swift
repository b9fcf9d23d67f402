import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RecordingHTTPClient streamed request bodies", .timeLimit(.minutes(1)))
struct RecordingStreamedBodyTests: RecordingSuite {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString).har")

    func entries() throws -> [HTTPArchive.Entry] {
        try archive().log.entries
    }

    /// A single-use streamed body of `parts`.
    func streamed(_ parts: [String], length: Int? = nil) -> HTTPBody {
        .stream(length: length, contentType: "application/json", Chunked(parts: parts))
    }

    @Test("A streamed body is copied as the transport reads it: sent once, whole, and recorded redacted")
    func recordsWhileSent() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let secret = "s3cr3t-\(UUID().uuidString)"
        let transport = BodyReadingTransport()
        let options = RecordingOptions(redactor: Redactor(bodyFieldNames: ["pin"]))
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: transport, options: options))
        let parts = [#"{"pin":""#, secret, #"","user":"jane"}"#]

        let response = try await apiClient.POST("/ingest", body: streamed(parts)).get()

        #expect(response.body == Data(parts.joined().utf8), "the transport read every byte")
        #expect(transport.reads.values == [parts.joined()], "and read the body once")
        let request = try #require(try entries().first).request
        let text = try #require(request.postData?.text)
        #expect(!text.contains(secret))
        #expect(text.contains("REDACTED") && text.contains("jane"))
        #expect(request.bodySize == parts.joined().utf8.count)
        #expect(request.postData?.mimeType == "application/json")
    }

    @Test("A replayable streamed body resent by the transport is recorded as its last attempt sent it")
    func replayableResent() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = BodyReadingTransport(attempts: 2)
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: transport))
        let body = HTTPBody.stream(contentType: "text/plain", replayable: { Chunked(parts: ["ab", "cd"]) })
        _ = try await apiClient.POST("/again", body: body).get()
        #expect(transport.reads.values == ["abcd", "abcd"])
        #expect(try #require(try entries().first).request.postData?.text == "abcd")
    }

    @Test("A streamed body beyond maximumBodySize is sent whole and left out of the recording, saying so")
    func oversized() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = BodyReadingTransport()
        let options = RecordingOptions(maximumBodySize: 5)
        let apiClient = client(RecordingHTTPClient(.record, file: file, wrapping: transport, options: options))
        _ = try await apiClient.POST("/big", body: streamed(["abc", "def", "ghi"])).get()
        #expect(transport.reads.values == ["abcdefghi"])
        let request = try #require(try entries().first).request
        #expect(request.postData?.text == nil)
        #expect(request.postData?.comment == "streamed body of 9 bytes, larger than maximumBodySize: not recorded")
        #expect(request.bodySize == 9)
        // HAR 1.2 requires postData.text: the file has an empty one beside the comment, read back as not recorded.
        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(data) == [])
        #expect(String(decoding: data, as: UTF8.self).contains(#""text" : ""#))
    }

    @Test("A streamed body the transport did not read to its end is not recorded, and the entry says so")
    func notReadToTheEnd() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let stub = StubHTTPClient()
        stub.stub(with: .text("early answer"))
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: stub)).POST(
            "/early", body: streamed(["abc"])
        ).get()
        let request = try #require(try entries().first).request
        #expect(request.postData?.text == nil)
        #expect(
            request.postData?.comment
                == "streamed body not read to its end (0 bytes read when the response came): not recorded")
        #expect(request.bodySize == -1)
    }

    @Test("A streamed body whose declared length was read counts as read to its end")
    func declaredLength() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = BodyReadingTransport(stopAtLength: true)
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: transport)).POST(
            "/sized", body: streamed(["ab", "cd"], length: 4)
        ).get()
        #expect(try #require(try entries().first).request.postData?.text == "abcd")
    }

    @Test("A stream that fails reaches the transport with its own error, not one wrapped by the recorder")
    func streamErrorUnchanged() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = BodyReadingTransport()
        let body = HTTPBody.stream(contentType: "text/plain", Chunked(parts: ["ab"], failure: ChunkFailure()))
        let result = await client(RecordingHTTPClient(.record, file: file, wrapping: transport)).POST(
            "/fails", body: body)
        guard case .failure(.httpClientError(let underlying)) = result else {
            Issue.record("expected the stream's error, got \(result)")
            return
        }
        #expect(underlying is ChunkFailure, "\(underlying)")
    }

    @Test("Body matching compares a streamed body with the recorded one, whatever its chunks")
    func matchesStreamedBodies() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: BodyReadingTransport())).POST(
            "/ingest", body: streamed([#"{"a":1,"#, #""b":2}"#])
        ).get()

        let options = RecordingOptions(matching: ReplayMatching(body: true))
        let replayer = client(RecordingHTTPClient(replaying: file, options: options))
        let same = try await replayer.POST("/ingest", body: streamed([#"{"b":2,"a":1}"#])).get()
        #expect(same.body == Data(#"{"a":1,"b":2}"#.utf8), "JSON compared as values, the chunks do not count")

        let other = await replayer.POST("/ingest", body: streamed([#"{"a":3}"#]))
        guard case .failure(.httpClientError(let underlying)) = other,
            case .noMatch(let mismatch)? =
                underlying as? RecordingError
        else {
            Issue.record("a different streamed body must not match, got \(other)")
            return
        }
        #expect(mismatch.differences == [#"- body {"a":1,"b":2}"#, #"+ body {"a":3}"#])
    }

    @Test("Without body matching a replay never reads a streamed body")
    func unreadWithoutBodyMatching() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client(RecordingHTTPClient(.record, file: file, wrapping: BodyReadingTransport())).POST(
            "/ingest", body: streamed(["x"])
        ).get()
        let body = streamed(["y"])
        _ = try await client(RecordingHTTPClient(replaying: file)).POST("/ingest", body: body).get()
        let streamedBody = try #require(body.streamed)
        #expect(throws: Never.self, "the single-use body was not used") { _ = try streamedBody.makeChunks() }
    }

    @Test("Record if missing with body matching: a body read to compare is still sent whole, once, and recorded")
    func recordIfMissingSendsWhatWasRead() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = BodyReadingTransport()
        let options = RecordingOptions(matching: ReplayMatching(body: true), maximumBodySize: 4)
        let recorder = client(RecordingHTTPClient(.recordIfMissing, file: file, wrapping: transport, options: options))
        _ = try await recorder.POST("/small", body: streamed(["ab", "c"])).get()
        _ = try await recorder.POST("/large", body: streamed(["ab", "cd", "ef", "gh"])).get()
        #expect(transport.reads.values == ["abc", "abcdefgh"], "the chunks read to compare went out first")
        let recorded = try entries().map(\.request)
        #expect(recorded.map { $0.postData?.text } == ["abc", nil])

        let again = client(RecordingHTTPClient(.recordIfMissing, file: file, wrapping: transport, options: options))
        _ = try await again.POST("/small", body: streamed(["a", "bc"])).get()
        #expect(transport.reads.count == 2, "a recorded body replays")
    }
}

/// A finite sequence of text chunks, failing with `failure` after them when given.
private struct Chunked: AsyncSequence, Sendable {
    let parts: [String]
    var failure: (any Error & Sendable)?

    struct AsyncIterator: AsyncIteratorProtocol {
        var parts: [String]
        let failure: (any Error & Sendable)?

        mutating func next() async throws -> Data? {
            if parts.isEmpty {
                if let failure { throw failure }
                return nil
            }
            return Data(parts.removeFirst().utf8)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(parts: parts, failure: failure)
    }
}

private struct ChunkFailure: Error {}

/// A transport that reads a streamed request body as a real one does (`makeChunks()`, then chunk by chunk), as
/// many `attempts` times as a 307/308 resend would, and answers with what it read.
private struct BodyReadingTransport: HTTPClient {
    let reads = Recorder<String>()
    var attempts = 1
    /// Stop at the declared length instead of reading the sequence's end, as a transport sending
    /// `Content-Length` may.
    var stopAtLength = false

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard let streamed = request.body?.streamed else {
            return HTTPResponse(statusCode: 200, body: try request.bodyData() ?? Data(), request: request)
        }
        var body = Data()
        for _ in 0..<attempts {
            body = Data()
            let chunks = try streamed.makeChunks()
            while let chunk = try await chunks.next() {
                body.append(chunk)
                if stopAtLength, let length = streamed.length, body.count >= length { break }
            }
            reads.append(String(decoding: body, as: UTF8.self))
        }
        return HTTPResponse(statusCode: 200, body: body, request: request)
    }
}
