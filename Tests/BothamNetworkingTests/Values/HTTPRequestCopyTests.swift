import Foundation
import Testing

@testable import BothamNetworking

@Suite("HTTPRequest copies share storage until one of them changes", .timeLimit(.minutes(1)))
struct HTTPRequestCopyTests {
    let original = HTTPRequest(
        method: .post, baseEndpoint: "https://api.example.com", path: "/items", headers: ["Accept": "application/json"],
        body: .text("hello"))

    @Test("changing a copy, field by field, never changes the original or other copies")
    func copiesAreIndependent() {
        var copy = original
        let other = original
        copy.headers[.authorization] = "Bearer t"
        copy.method = .put
        copy.path = "/other"
        copy.body = nil
        copy.timeout = .seconds(3)
        copy.responseDestination = .file(URL(fileURLWithPath: "/tmp/x"))

        #expect(original.method == .post)
        #expect(original.path == "/items")
        #expect(original.headers[.authorization] == nil)
        #expect(original.body == .text("hello"))
        #expect(original.timeout == nil)
        #expect(original.responseDestination == .memory)
        #expect(other == original)
        #expect(copy != original)
        #expect(copy.headers[.authorization] == "Bearer t")
    }

    @Test("equal requests are equal and hash alike whether or not they were prepared")
    func equalityIgnoresPreparation() throws {
        try inCall {
            let original = HTTPRequest(
                method: .get, baseEndpoint: "https://api.example.com", path: "/items",
                headers: ["Accept": "application/json"])
            let resolved = try original.prepared()
            let rebuilt = HTTPRequest(
                method: .get, baseEndpoint: "https://api.example.com", path: "/items",
                headers: ["Accept": "application/json"])

            #expect(resolved.isPrepared)
            #expect(resolved == rebuilt)
            #expect(resolved.hashValue == rebuilt.hashValue)
            #expect(Set([resolved, rebuilt, original]).count == 1)
            #expect(resolved.withPath("/x") != rebuilt)
        }
    }

    @Test("a resolved URL is used only while endpoint, path and parameters are unchanged")
    func resolvedURLFollowsTheFields() throws {
        try inCall {
            let request = try original.prepared()
            #expect(try request.resolvedURL().absoluteString == "https://api.example.com/items")
            #expect(try request.withPath("/b").resolvedURL().absoluteString == "https://api.example.com/b")
            #expect(
                try request.appendingParameters(["q": "1"]).resolvedURL().absoluteString
                    == "https://api.example.com/items?q=1")
            #expect(
                try request.withBaseEndpoint("https://other.example.com").resolvedURL().absoluteString
                    == "https://other.example.com/items")
        }
    }
}
