import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Logging and metrics see a streamed body when it has been read, without buffering it", .timeLimit(.minutes(1)))
struct StreamingObservabilityTests {
    static func client(_ stubClient: StubHTTPClient) -> BothamAPIClient {
        BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stubClient)
    }

    @Test("the logging interceptor logs the head at once and the streamed size at the end")
    func loggingLogsHeadThenSummary() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .streamed(chunks: [StubChunk("12345"), StubChunk("678")]))
        let lines = Recorder<String>()
        let apiClient = Self.client(stubClient)
        apiClient.interceptors.append(
            LoggingInterceptor(detail: .body, sink: LoggingInterceptor.Sink { _, line in lines.append(line) }))

        let response = try await apiClient.stream(.get, "/feed")
        let afterHead = lines.values
        let body = try await response.body.collect()

        #expect(body == Data("12345678".utf8))
        #expect(afterHead.count == 2)
        #expect(afterHead.last?.contains("body streaming") == true)
        #expect(lines.values.count == 3)
        #expect(lines.values.last?.contains("streamed 8 bytes") == true, "\(lines.values)")
    }

    @Test("a stream the reader abandons is logged as cancelled, with the bytes it read")
    func loggingAbandonedStream() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .streamed(chunks: [StubChunk("first"), StubChunk("second"), StubChunk("third")]))
        let lines = Recorder<String>()
        let apiClient = Self.client(stubClient)
        apiClient.interceptors.append(
            LoggingInterceptor(sink: LoggingInterceptor.Sink { _, line in lines.append(line) }))

        let response = try await apiClient.stream(.get, "/feed")
        var iterator = response.body.makeAsyncIterator()
        _ = try await iterator.next()
        response.body.cancel()

        let last = try #require(lines.values.last)
        #expect(last.contains("streamed 5 bytes"), "\(last)")
        #expect(last.contains("cancelled"), "\(last)")
    }

    @Test("metrics report a streamed call once its body has been read, with every byte it received")
    func metricsCoverTheStream() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .streamed(chunks: [StubChunk("abc"), StubChunk("defg")]))
        let reports = Recorder<MetricsInterceptor.Report>()
        let apiClient = Self.client(stubClient)
        apiClient.interceptors.append(MetricsInterceptor { reports.append($0) })

        let response = try await apiClient.stream(.get, "/feed")
        let beforeBody = reports.values.count
        _ = try await response.body.collect()

        #expect(beforeBody == 0)
        let report = try #require(reports.values.first)
        #expect(reports.values.count == 1)
        #expect(report.bytesReceived == 7)
        #expect(report.statusCode == 200)
    }
}

@Suite("Server-Sent Event data decodes as JSON, and a bad payload is a typed error", .timeLimit(.minutes(1)))
struct ServerSentEventDecodingTests {
    struct Delta: Decodable, Equatable {
        let token: String
    }

    @Test("event data decodes into a Decodable value")
    func decodesData() throws {
        let event = ServerSentEvent(type: "delta", data: #"{"token":"Hel"}"#, id: "1")
        #expect(try event.decoded(as: Delta.self) == Delta(token: "Hel"))
    }

    @Test("data that is not the expected JSON fails with parsingError carrying the data")
    func badDataIsParsingError() {
        let event = ServerSentEvent(data: "[DONE]")
        do {
            _ = try event.decoded(as: Delta.self)
            Issue.record("[DONE] decoded as a Delta")
        } catch {
            guard case .parsingError(let body, _) = error else {
                Issue.record("expected parsingError, got \(error)")
                return
            }
            #expect(body == Data("[DONE]".utf8))
        }
    }
}
