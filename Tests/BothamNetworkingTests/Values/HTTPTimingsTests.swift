import BothamNetworking
import Foundation
import Testing

@Suite("HTTPResponse.Timings", .timeLimit(.minutes(1)))
struct HTTPTimingsTests {
    @Test("The description lists the measured phases in order with their durations, then the connection's reuse")
    func description() {
        #expect(
            HTTPResponse.Timings.sample(step: 2).description
                == "dns 2.0ms connect 2.0ms tls 2.0ms send 2.0ms wait 2.0ms receive 2.0ms new connection")
        let reused = HTTPResponse.Timings(
            requestSent: .init(start: .zero, end: .microseconds(100)),
            waiting: .init(start: .microseconds(100), end: .microseconds(12_100)), reusedConnection: true)
        #expect(reused.description == "send 0.1ms wait 12.0ms reused connection")
        #expect(HTTPResponse.Timings().description == "no phases measured")
        #expect(reused.phases.map(\.name) == ["send", "wait"])
        #expect(reused.timeToFirstByte == .milliseconds(12))
    }

    @Test("A phase never ends before it starts")
    func phaseClamps() {
        let phase = HTTPResponse.Timings.Phase(start: .milliseconds(5), end: .milliseconds(3))
        #expect(phase.end == .milliseconds(5))
        #expect(phase.duration == .zero)
    }

    @Test("A response keeps its timings through every copy, and two responses that differ only in them are equal")
    func responseCarriesTimings() {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com", path: "/")
        let timings = HTTPResponse.Timings.sample(step: 1)
        let response = HTTPResponse(statusCode: 200, body: Data("a".utf8), request: request, timings: timings)
        #expect(response.timings == timings)
        #expect(response.withBody(Data("b".utf8)).timings == timings)
        #expect(response.withHeaders(["X-A": "1"]).timings == timings)
        #expect(response.withStatusCode(201).timings == timings)
        #expect(response.withBodyFile(nil).timings == timings)
        #expect(response.withTimings(nil).timings == nil)
        #expect(HTTPResponse(statusCode: 200, request: request).timings == nil)
        let untimed = response.withTimings(nil)
        #expect(untimed == response)
        #expect(untimed.hashValue == response.hashValue)
        #expect(response.withTimings(.sample(step: 9)) == response)
    }
}
