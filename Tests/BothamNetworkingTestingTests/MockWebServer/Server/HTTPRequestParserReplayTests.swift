import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// The byte-level entry point the request-parser fuzz target drives, checked on the inputs its corpus starts from.
@Suite("Request parser replay", .timeLimit(.minutes(1)))
struct HTTPRequestParserReplayTests {
    private func parse(_ text: String, maxBodyBytes: Int = 1024) throws -> [HTTPRequestParserReplay.Outcome] {
        try HTTPRequestParserReplay.parse(Array(text.utf8), maxHeaderBytes: 1024, maxBodyBytes: maxBodyBytes)
    }

    @Test("pipelined requests are read in order, with their bodies")
    func pipelinedRequests() throws {
        let outcomes = try parse(
            "GET /a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "POST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
                + "PUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nX-T: 1\r\n\r\n")
        let requests = outcomes.compactMap { outcome -> RecordedRequest? in
            if case .request(let request) = outcome { return request }
            return nil
        }
        #expect(requests.map(\.method) == ["GET", "POST", "PUT"])
        #expect(requests.map(\.path) == ["/a", "/b", "/c"])
        #expect(requests.map(\.bodyAsString) == ["", "abc", "hi"])
        #expect(requests.last.map { "\($0.trailers)" } == "X-T: 1")
        #expect(requests.last?.chunkSizes == [2])
    }

    @Test("Content-Length together with Transfer-Encoding is refused (no request smuggling)")
    func smugglingIsRefused() throws {
        let outcomes = try parse("POST / HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(outcomes.count == 1)
        guard case .rejected(let status, _) = outcomes.first else {
            Issue.record("expected a rejection, got \(outcomes)")
            return
        }
        #expect(status == 400)
    }

    @Test("sizes beyond Int, oversized bodies and bare control characters are answered, never trapped on")
    func hostileSizesAreRejected() throws {
        let cases: [(String, Int)] = [
            ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n", 413),
            ("POST / HTTP/1.1\r\nContent-Length: 2048\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nX: a\u{0}b\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
        ]
        for (text, expected) in cases {
            let outcomes = try parse(text)
            guard case .rejected(let status, _) = outcomes.last else {
                Issue.record("\(DebugText.quoted(text)) was not rejected: \(outcomes)")
                continue
            }
            #expect(status == expected, "\(DebugText.quoted(text))")
        }
    }

    @Test("a request cut short ends the connection without a request")
    func truncatedRequest() throws {
        let outcomes = try parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        guard case .connectionEnded = outcomes.last else {
            Issue.record("expected the connection to end, got \(outcomes)")
            return
        }
        #expect(outcomes.count == 1)
    }
}
