import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

extension TransportIntegrationTests {
    @Suite("Both transports report per-phase timings on the response", .timeLimit(.minutes(1)))
    struct TransportTimingsTests {
        @Test(
            "A server slow to send its head shows in the wait, a slow body in the body's time",
            arguments: TransportUnderTest.allCases)
        func slowHeadAndBody(transport: TransportUnderTest) async throws {
            let headDelay = Duration.milliseconds(300)
            let bodyDelay = Duration.milliseconds(200)
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withHeadersDelay(headDelay).streaming([
                    .init(Data("a".utf8)), .init(Data("b".utf8), after: bodyDelay),
                ]))

            let response = try await TransportTest.client(transport, server).GET("/slow").get()

            #expect(response.body == Data("ab".utf8))
            let timings = try #require(response.timings)
            #expect(try #require(timings.timeToFirstByte) >= headDelay, "\(timings)")
            let waiting = try #require(timings.waiting)
            let body = try #require(timings.bodyReceived)
            #expect(waiting.end <= body.start, "\(timings)")
            // The wait and the body together span both delays. URLSession splits them where its delegate heard of
            // the head, which can come a little after the head arrived; native splits them at the first byte.
            #expect(body.end >= headDelay + bodyDelay, "\(timings)")
            // Native's body starts at the first body byte; that byte can be read a few milliseconds after the server
            // wrote it and began its delay (seen over HTTP/2 in a loaded suite: 196 ms for a 200 ms delay).
            if transport.isNative { #expect(body.duration >= bodyDelay - .milliseconds(20), "\(timings)") }
        }

        @Test(
            "Each transport reports exactly the phases its documentation lists", arguments: TransportUnderTest.allCases)
        func documentedPhases(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("hello"))

            let response = try await TransportTest.client(transport, server).GET("/phases").get()

            let timings = try #require(response.timings)
            switch transport {
            case .urlSession:
                // FoundationNetworking delivers no task metrics: only what our delegate sees.
                #expect(timings.phases.map(\.name) == ["wait", "receive"], "\(timings)")
                #expect(timings.reusedConnection == nil)
                #expect(timings.protocolVersion == nil)
                #expect(try #require(timings.waiting).start == .zero)
            case .native, .nativeTwoLoops, .nativeHTTP2:
                // An IP literal (MockWebServer's 127.0.0.1) needs no lookup, and plain http no TLS.
                #expect(timings.phases.map(\.name) == ["connect", "send", "wait", "receive"], "\(timings)")
                #expect(timings.reusedConnection == false)
                #expect(response.protocolVersion == (transport == .nativeHTTP2 ? .http2 : .http1_1))
            }
        }

        @Test("A redirected call's timings are those of its last hop", arguments: TransportUnderTest.allCases)
        func lastHop(transport: TransportUnderTest) async throws {
            let delay = Duration.milliseconds(300)
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withStatus(302).withHeader(.location, "/next").withHeadersDelay(delay))
            server.enqueue(MockResponse().withBody("there"))

            let (result, elapsed) = await TransportTest.elapsed {
                await TransportTest.client(transport, server).GET("/first")
            }

            let response = try result.get()
            #expect(response.body == Data("there".utf8))
            let timings = try #require(response.timings)
            // The first hop took at least its slow head; the last hop's timings start after it, so they span no more
            // than the rest of the call.
            let end = try #require(timings.phases.last).phase.end
            #expect(end <= elapsed - delay, "\(timings) in a call of \(elapsed)")
        }
    }
}
