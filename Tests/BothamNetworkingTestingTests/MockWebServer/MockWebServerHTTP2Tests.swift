import BothamHTTP2Wire
import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingTesting

@Suite("MockWebServer serves cleartext HTTP/2 to a client that opens with the preface", .timeLimit(.minutes(1)))
struct MockWebServerHTTP2Tests {
    static let get = [
        (":method", "GET"), (":scheme", "http"), (":authority", "api.test:8080"), (":path", "/hello?x=1"),
    ]

    @Test("a request is recorded as HTTP/2: :path as the target, Host from :authority, cookie fields joined")
    func requestIsRecorded() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withHeader("X-Reply", "yes").withBody("hi"))

        let (fields, body) = try await offCooperativePool {
            let client = try RawHTTP2Connection(port: server.port)
            try client.sendHeaders(
                Self.get + [("cookie", "a=1"), ("x-trace", "t"), ("cookie", "b=2")], on: 1, endStream: true)
            let response = try client.response(on: 1)
            return (response.fields, response.body)
        }
        let recorded = try await server.takeRequest()

        #expect(fields[":status"] == "200")
        #expect(fields["x-reply"] == "yes")
        #expect(fields["content-length"] == "2")
        #expect(body == Array("hi".utf8))
        #expect(recorded.version == "HTTP/2")
        #expect(recorded.target == "/hello?x=1")
        #expect(recorded.query == "x=1")
        #expect(recorded.headers.fields.first?.name == .host)
        #expect(recorded.header(.host) == "api.test:8080")
        #expect(recorded.header("Cookie") == "a=1; b=2")
        #expect(recorded.header("X-Trace") == "t")
    }

    @Test("the server's first frame is its SETTINGS, and it goes out only with the first response")
    func prefaceWaitsForTheFirstResponse() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.disconnectAtStart))
        server.enqueue(MockResponse().withBody("second"))

        let (closed, firstFrame) = try await offCooperativePool { () -> (Bool, HTTP2Frame) in
            let silent = try RawHTTP2Connection(port: server.port)
            try silent.sendHeaders(Self.get, on: 1, endStream: true)
            let closed = silent.raw.blockingIsClosedByServer()
            let client = try RawHTTP2Connection(port: server.port)
            try client.sendHeaders(Self.get, on: 1, endStream: true)
            return (closed, try client.nextFrame())
        }

        // disconnectAtStart on a new connection sends nothing at all, as over HTTP/1.1.
        #expect(closed)
        guard case .settings(.parameters(let settings)) = firstFrame.payload else {
            Issue.record("the first frame was \(firstFrame)")
            return
        }
        #expect(settings.contains(HTTP2Setting(.enablePush, 0)))
    }

    @Test("PING is answered with its data, and many streams are answered on one connection, each its own body")
    func pingAndConcurrentStreams() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { request in MockResponse().withBody(request.path) }

        let (ping, bodies) = try await offCooperativePool { () -> (HTTP2Frame.PingPayload?, [UInt32: String]) in
            let client = try RawHTTP2Connection(port: server.port)
            try client.send([HTTP2Frame(streamID: .connection, payload: .ping(.init(opaqueData: 0xB07A)))])
            for stream in stride(from: UInt32(1), through: 19, by: 2) {
                let fields = [(":method", "GET"), (":scheme", "http"), (":path", "/s\(stream)")]
                try client.sendHeaders(fields, on: stream, endStream: true)
            }
            var ping: HTTP2Frame.PingPayload?
            var bodies: [UInt32: [UInt8]] = [:]
            var ended = 0
            while ended < 10 {
                let frame = try client.nextFrame()
                switch frame.payload {
                case .ping(let payload): ping = payload
                case .headers(let headers): _ = try client.fields(of: headers)
                case .data(let data):
                    bodies[frame.streamID.rawValue, default: []] += data.bytes
                    if data.endStream { ended += 1 }
                default: break
                }
            }
            return (ping, bodies.mapValues { String(decoding: $0, as: UTF8.self) })
        }

        #expect(ping == HTTP2Frame.PingPayload(opaqueData: 0xB07A, ack: true))
        #expect(bodies.count == 10)
        for (stream, body) in bodies { #expect(body == "/s\(stream)") }
        #expect(server.requestCount == 10)
    }

    @Test("a response body waits for the client's windows: 65,535 bytes, then the rest after WINDOW_UPDATE")
    func responseRespectsFlowControl() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        let payload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.enqueue(MockResponse().withBody(payload))

        let (client, firstPart) = try await offCooperativePool { () -> (RawHTTP2Connection, [UInt8]) in
            let client = try RawHTTP2Connection(port: server.port)
            try client.sendHeaders(Self.get, on: 1, endStream: true)
            var received: [UInt8] = []
            while received.count < 65_535 {
                if case .data(let data) = try client.nextFrame().payload { received += data.bytes }
            }
            return (client, received)
        }
        let beforeCredit = firstPart.count
        // Both windows are spent: the server can have handed no more to its socket. (It counts a frame once the
        // kernel took it, which may be a moment after the client read it: wait, bounded, for the count to get there.)
        _ = await eventually(within: .seconds(10)) { server.responseBodyBytesWritten >= 65_535 }
        let writtenAtStall = server.responseBodyBytesWritten
        let received = try await offCooperativePool { () -> [UInt8] in
            try client.send([
                HTTP2Frame(streamID: .connection, payload: .windowUpdate(windowIncrement: 40_000)),
                HTTP2Frame(streamID: 1, payload: .windowUpdate(windowIncrement: 40_000)),
            ])
            return firstPart + (try client.response(on: 1).body)
        }

        #expect(beforeCredit == 65_535)
        #expect(writtenAtStall == 65_535)
        #expect(received == Array(payload))
    }

    @Test("a response held with noResponse ends when the client resets its stream, which counts as a hang-up")
    func resetEndsAHeldResponse() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.noResponse))
        server.enqueue(MockResponse().withBody("after"))

        let after = try await offCooperativePool { () -> [UInt8] in
            let client = try RawHTTP2Connection(port: server.port)
            try client.sendHeaders(Self.get, on: 1, endStream: true)
            try client.send([HTTP2Frame(streamID: 1, payload: .rstStream(.cancel))])
            try client.sendHeaders(Self.get, on: 3, endStream: true)
            return try client.response(on: 3).body
        }
        let sawHangUp = await eventually { server.clientClosedConnectionCount == 1 }

        #expect(after == Array("after".utf8))
        #expect(sawHangUp)
    }

    @Test("a body over maxBodyBytes is answered 413 on its stream, and the connection serves the next")
    func oversizedBodyIsRefused() async throws {
        let server = try MockWebServer(configuration: .init(maxBodyBytes: 1_000))
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("ok"))

        let (refused, next) = try await offCooperativePool { () -> ([String: String], [UInt8]) in
            let client = try RawHTTP2Connection(port: server.port)
            let post = [(":method", "POST"), (":scheme", "http"), (":path", "/upload")]
            try client.sendHeaders(post, on: 1, endStream: false)
            try client.send([HTTP2Frame(streamID: 1, payload: .data(.init(bytes: Array(repeating: 1, count: 2_000))))])
            let refused = try client.response(on: 1).fields
            try client.sendHeaders(Self.get, on: 3, endStream: true)
            return (refused, try client.response(on: 3).body)
        }

        #expect(refused[":status"] == "413")
        #expect(next == Array("ok".utf8))
        #expect(server.requestCount == 1)
    }

    @Test("a dispatcher that shuts the server down on an HTTP/2 stream returns, and every thread ends")
    func shutdownFromADispatcher() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.setDispatcher { _ in
            server.shutdown()
            return MockResponse()
        }

        let closed = try await offCooperativePool { () -> Bool in
            let client = try RawHTTP2Connection(port: server.port)
            try client.sendHeaders(Self.get, on: 1, endStream: true)
            _ = client.raw.blockingReadUntilClosed()
            return true
        }
        let ended = await eventually(within: .seconds(10)) { server.runningThreadCount == 0 }

        #expect(closed)
        #expect(server.isShutDown)
        #expect(ended, "\(server.runningThreadCount) threads still running")
    }

    @Test("with servesHTTP2PriorKnowledge off, the preface is answered 505 HTTP Version Not Supported")
    func http1OnlyRejectsThePreface() async throws {
        var configuration = MockWebServer.Configuration()
        configuration.servesHTTP2PriorKnowledge = false
        let server = try MockWebServer(configuration: configuration)
        defer { server.shutdown() }

        let (bytes, _) = try await offCooperativePool {
            let client = try RawHTTP2Connection(port: server.port)
            return client.raw.blockingReadUntilClosed()
        }

        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 505 "))
        #expect(server.requestCount == 0)
    }
}
