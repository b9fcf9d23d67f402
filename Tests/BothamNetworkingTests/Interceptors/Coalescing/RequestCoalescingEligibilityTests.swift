import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@Suite("RequestCoalescingInterceptor: which requests are coalesced", .timeLimit(.minutes(1)))
struct RequestCoalescingEligibilityTests {
    /// A request that is never coalesced, however many identical ones are in flight.
    enum Uncoalesced: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case post, getWithBody, fileDestination, streamed

        var testDescription: String { rawValue }

        var request: HTTPRequest {
            let url = URL(string: "https://coalescing.test/feed") ?? URL(fileURLWithPath: "/")
            switch self {
            case .post: return HTTPRequest(method: .post, url: url)
            case .getWithBody: return HTTPRequest(method: .get, url: url, body: .text("filter"))
            case .fileDestination:
                return HTTPRequest(method: .get, url: url)
                    .withResponseDestination(.file(FileManager.default.temporaryDirectory.appendingPathComponent("f")))
            case .streamed: return HTTPRequest(method: .get, url: url).withResponseDestination(.stream)
            }
        }
    }

    @Test(
        "a POST, a GET with a body, a file destination and a streamed call are each sent on their own",
        arguments: Uncoalesced.allCases)
    func neverCoalesced(kind: Uncoalesced) async throws {
        // POST is asked for, but it is not idempotent, so it is dropped.
        let coalescer = RequestCoalescingInterceptor(methods: [.get, .post])
        #expect(coalescer.methods == [.get])
        let transport = HeldTransport(answer: CoalescingFixture.echo)
        let next = HTTPInterceptorNext { request throws(APIClientError) in try await transport.send(request) }
        let request = kind.request
        let calls = (0..<3).map { index in
            Task {
                try await coalescer.intercept(
                    request, context: HTTPCallContext(callID: UInt64(index), attempt: 1, maxAttempts: 1), next: next)
            }
        }

        try #require(await eventually { transport.heldCount == 3 })
        #expect(coalescer.waitingCallCount == 0)
        transport.release()
        for call in calls { #expect(try await awaitingCancellably(call).statusCode == 200) }
        #expect(transport.sendCount == 3)
    }

    @Test("HEAD is coalesced by default, and a method added to methods is too")
    func headAndAddedMethods() async throws {
        let fixture = CoalescingFixture(coalescer: RequestCoalescingInterceptor(methods: [.head, .options]))
        let calls = (0..<3).map { index in
            Task { [apiClient = fixture.apiClient] in
                await apiClient.send(apiClient.request(index == 0 ? .options : .head, "/feed"))
            }
        }
        // One exchange for the HEADs, one for the OPTIONS.
        try #require(await fixture.waitUntil(waiting: 3, held: 2))
        fixture.transport.release()
        _ = await results(of: calls)
        #expect(fixture.transport.sendCount == 2)
    }

    @Test("the Vary names of at most rememberedVaryTargets URLs are kept, the oldest forgotten first")
    func varyMemoryIsBounded() async throws {
        let fixture = CoalescingFixture(coalescer: RequestCoalescingInterceptor(rememberedVaryTargets: 1)) {
            request throws(APIClientError) in
            try await CoalescingFixture.echo(request).withHeaders(["Vary": "Accept-Language"])
        }
        for path in ["/a", "/b"] {
            let teacher = fixture.startGETs(1, path)
            try #require(await fixture.waitUntil(waiting: 1, held: 1))
            fixture.transport.release()
            _ = await awaitingCancellably(teacher[0])
        }

        // /b is remembered (it was taught last): its en and fr calls are two exchanges from the start.
        let remembered = fixture.startGETs(2, "/b") { ["Accept-Language": $0 == 0 ? "en" : "fr"] }
        try #require(await fixture.waitUntil(waiting: 2, held: 2))
        fixture.transport.release()
        let answers = await results(of: remembered)
        #expect(try answers.map { try $0.get().body } == [Data("body for en".utf8), Data("body for fr".utf8)])
        // /a was forgotten when /b was remembered: its en and fr calls join one exchange (and fr is sent again
        // once the answer says it varies on Accept-Language).
        let forgotten = fixture.startGETs(2, "/a") { ["Accept-Language": $0 == 0 ? "en" : "fr"] }
        try #require(await fixture.waitUntil(waiting: 2, held: 1))
        fixture.transport.release()
        try #require(await fixture.waitUntil(waiting: 0, held: 1))  // the fr caller's own request
        fixture.transport.release()
        _ = await results(of: forgotten)
        // teachers 2, /a 1 + 1 resent, /b 2
        #expect(fixture.transport.sendCount == 6)
    }
}
