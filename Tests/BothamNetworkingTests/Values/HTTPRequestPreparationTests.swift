import Foundation
import Testing

@testable import BothamNetworking

@Suite("A request is prepared once, and a change undoes exactly what it invalidates", .timeLimit(.minutes(1)))
struct HTTPRequestPreparationTests {
    let request = HTTPRequest(
        method: .post, baseEndpoint: "https://api.example.com", path: "/items", headers: ["Accept": "application/json"],
        body: ["name": "botham"])

    @Test("preparing encodes the body into its bytes with a Content-Type, and bodyData returns exactly those bytes")
    func preparationEncodesTheBody() throws {
        try inCall {
            let prepared = try request.prepared()

            #expect(prepared.isPrepared)
            #expect(prepared.body == .data(Data(#"{"name":"botham"}"#.utf8)))
            #expect(prepared.headers[.contentType] == "application/json")
            #expect(try prepared.bodyData() == Data(#"{"name":"botham"}"#.utf8))
            #expect(try prepared.resolvedURL().absoluteString == "https://api.example.com/items")
        }
    }

    @Test("a prepared request is returned as it is by prepared()")
    func preparedIsIdempotent() throws {
        try inCall {
            let prepared = try request.prepared()
            let again = try prepared.prepared()

            #expect(again.isPrepared)
            #expect(again == prepared)
            #expect(again.headers == prepared.headers)
        }
    }

    @Test("changing the method, headers or body makes the request unprepared but keeps its resolved URL")
    func changesThatUnprepare() throws {
        try inCall {
            let prepared = try request.prepared()
            let changed = [
                prepared.withMethod(.put), prepared.withHeader(.authorization, "Bearer t"),
                prepared.withHeader(.accept, nil), prepared.withBody(.json(["x": 1])),
            ]

            for request in changed {
                #expect(!request.isPrepared)
                #expect(try request.resolvedURL().absoluteString == "https://api.example.com/items")
            }
            #expect(prepared.isPrepared)
        }
    }

    @Test("the timeout and the response destination are not prepared, so changing them keeps a request prepared")
    func changesThatKeepPreparation() throws {
        try inCall {
            let prepared = try request.prepared()

            #expect(prepared.withTimeout(.seconds(2)).isPrepared)
            #expect(prepared.withResponseDestination(.file(URL(fileURLWithPath: "/tmp/x"))).isPrepared)
        }
    }

    @Test("changing the endpoint, path or parameters makes the request unprepared and resolves the new URL")
    func changesThatMoveTheURL() throws {
        try inCall {
            let prepared = try request.prepared()
            let moved = [
                prepared.withPath("/other"), prepared.appendingParameters(["q": "1"]),
                prepared.withBaseEndpoint("https://other.example.com"),
            ]

            #expect(moved.allSatisfy { !$0.isPrepared })
            #expect(
                try moved.map { try $0.resolvedURL().absoluteString } == [
                    "https://api.example.com/other", "https://api.example.com/items?q=1",
                    "https://other.example.com/items",
                ])
        }
    }

    @Test("a request that cannot be sent fails preparation with invalidRequest")
    func invalidRequestsFail() {
        let injected = request.withHeader("X-Note", "a\r\nInjected: yes")
        let badMethod = request.withMethod(HTTPMethod("GE T"))
        let badBody = request.withBody(.json(["n": .double(.nan)]))

        for invalid in [injected, badMethod, badBody] {
            #expect {
                try invalid.prepared()
            } throws: { error in
                guard case APIClientError.invalidRequest = error else { return false }
                return true
            }
        }
    }
}

@Suite("What preparation established is the call's, not the request's", .timeLimit(.minutes(1)))
struct PreparationBelongsToTheCallTests {
    let request = HTTPRequest(
        method: .post, baseEndpoint: "https://api.example.com", path: "/items", body: ["name": "botham"])

    @Test("a request prepared in one call is prepared in that call only, never in another call or outside any")
    func preparationStaysWithItsCall() throws {
        let prepared = try inCall { try request.prepared() }
        #expect(!prepared.isPrepared)
        try inCall {
            #expect(!prepared.isPrepared)
            let again = try prepared.prepared()
            #expect(again.isPrepared)
        }
    }

    @Test("a request built again with the fields of one the call prepared is prepared too: the record is the call's")
    func aPreparedRequestCarriesNoBookkeeping() throws {
        try inCall {
            let prepared = try request.prepared()
            let rebuilt = HTTPRequest(
                method: .post, baseEndpoint: "https://api.example.com", path: "/items",
                headers: [.contentType: "application/json"], body: .data(Data(#"{"name":"botham"}"#.utf8)))
            #expect(prepared == rebuilt)
            #expect(prepared.hashValue == rebuilt.hashValue)
            #expect(rebuilt.isPrepared)
        }
    }
}

/// Runs `body` inside a call of its own, as the client runs each call: preparation is recorded in the call
/// (`RequestPreparations`), not in the request.
func inCall<T>(_ body: () throws -> T) rethrows -> T {
    try HTTPCallContext.$current.withValue(HTTPCallContext(callID: 0, attempt: 1, maxAttempts: 1)) { try body() }
}
