import BothamNetworking
import BothamNetworkingNative
import Foundation
import Testing

@Suite("NativeHTTPClient redirects", .timeLimit(.minutes(1)))
struct NativeHTTPClientRedirectTests {
    private func target() throws -> LoopbackServer {
        try LoopbackServer { request in
            .response(status: 200, headers: [("X-Method", request.method)], body: request.body)
        }
    }

    private func redirector(to location: String, status: Int) throws -> LoopbackServer {
        try LoopbackServer { request in
            if request.target.hasPrefix("/final") {
                return .response(status: 200, headers: [("X-Method", request.method)], body: request.body)
            }
            return .response(status: status, headers: [("Location", location)])
        }
    }

    @Test("A 307 to another port keeps method and body and strips Authorization and Cookie")
    func crossOrigin307() async throws {
        let final = try target()
        defer { final.stop() }
        let start = try redirector(to: "\(final.baseURL)/landing", status: 307)
        defer { start.stop() }
        let request = HTTPRequest(
            method: .post,
            baseEndpoint: start.baseURL,
            path: "/go",
            headers: [.authorization: "Bearer secret", .cookie: "s=1", "X-Custom": "kept"],
            body: .text("payload")
        )
        let response = try await makeClient().send(request)
        #expect(response.statusCode == 200)
        #expect(response.body == Data("payload".utf8))
        #expect(response.url?.absoluteString == "\(final.baseURL)/landing")
        let landed = try #require(final.requests.first)
        #expect(landed.method == "POST")
        #expect(landed.header("Authorization") == nil)
        #expect(landed.header("Cookie") == nil)
        #expect(landed.header("X-Custom") == "kept")
    }

    @Test("A same-origin relative redirect keeps credentials")
    func sameOrigin() async throws {
        let server = try redirector(to: "/final", status: 302)
        defer { server.stop() }
        let request = get(server, "/start", headers: [.authorization: "Bearer secret"])
        let response = try await makeClient().send(request)
        #expect(response.statusCode == 200)
        #expect(server.requests.last?.header("Authorization") == "Bearer secret")
    }

    @Test("301, 302 and 303 turn POST into a GET without a body", arguments: [301, 302, 303])
    func postBecomesGet(status: Int) async throws {
        let server = try redirector(to: "/final", status: status)
        defer { server.stop() }
        let request = HTTPRequest(method: .post, baseEndpoint: server.baseURL, path: "/start", body: .text("x"))
        let response = try await makeClient().send(request)
        #expect(response.headers["X-Method"] == "GET")
        #expect(response.body.isEmpty)
        #expect(server.requests.last?.header("Content-Type") == nil)
    }

    @Test("A redirect loop fails with tooManyRedirects")
    func loop() async throws {
        let server = try redirector(to: "/again", status: 302)
        defer { server.stop() }
        let error = await failure(of: get(server, "/again"), with: makeClient())
        #expect(error.flatMap(failureKind) == .tooManyRedirects)
    }

    @Test("More redirects than the policy allows fail with tooManyRedirects")
    func tooMany() async throws {
        let server = try LoopbackServer { request in
            let next = (Int(request.target.dropFirst()) ?? 0) + 1
            return .response(status: 302, headers: [("Location", "/\(next)")])
        }
        defer { server.stop() }
        let client = makeClient { $0.redirectPolicy = .follow(maximum: 3) }
        let error = await failure(of: get(server, "/0"), with: client)
        #expect(error.flatMap(failureKind) == .tooManyRedirects)
        #expect(server.requests.count == 4)
    }

    @Test("With redirects off the 3xx response is returned")
    func doNotFollow() async throws {
        let server = try redirector(to: "/final", status: 302)
        defer { server.stop() }
        let response = try await makeClient { $0.redirectPolicy = .doNotFollow }.send(get(server, "/start"))
        #expect(response.statusCode == 302)
        #expect(response.headers[.location] == "/final")
    }
}
