import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Property list bodies", .timeLimit(.minutes(1)))
struct PropertyListBodyTests {
    struct Settings: Codable, Equatable {
        var volume: Int
        var name: String
        var tags: [String]
        var ratio: Double
    }

    let stub = StubHTTPClient()
    var apiClient: BothamAPIClient { BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub) }

    @Test("a dictionary round-trips as XML with the property list content type")
    func xmlDictionary() async throws {
        stub.stub(with: .text("ok"))
        _ = try await apiClient.POST(
            "/settings",
            body: .propertyList(["volume": 11, "name": "Jane & co", "tags": ["a"], "ratio": 0.5, "on": true])
        ).get()
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.contentType] == "application/x-plist")
        let data = try #require(try sent.bodyData())
        #expect(String(decoding: data.prefix(5), as: UTF8.self) == "<?xml")
        let object = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        #expect(object?["volume"] as? Int == 11)
        #expect(object?["name"] as? String == "Jane & co")
        #expect(object?["tags"] as? [String] == ["a"])
        #expect(object?["ratio"] as? Double == 0.5)
        #expect(object?["on"] as? Bool == true)
    }

    @Test("an Encodable round-trips as binary through PropertyListDecoder")
    func binaryEncodable() throws {
        let settings = Settings(volume: 3, name: "ñandú", tags: ["x", "y"], ratio: 1.25)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try #require(try HTTPBody.propertyList(settings, encoder: encoder).encoded(forContentType: nil).data)
        #expect(data.starts(with: Data("bplist00".utf8)))
        #expect(try PropertyListDecoder().decode(Settings.self, from: data) == settings)
    }

    @Test("a binary dictionary body is binary")
    func binaryDictionary() throws {
        let encoded = try HTTPBody.propertyList(["a": 1], format: .binary).encoded(forContentType: nil)
        #expect(encoded.data.starts(with: Data("bplist00".utf8)))
        #expect(encoded.contentType == "application/x-plist")
    }

    @Test("a property list response decodes with decodedPropertyList")
    func response() async throws {
        let settings = Settings(volume: 1, name: "n", tags: [], ratio: 2)
        stub.stub(
            with: .response(
                headers: [.contentType: "application/x-plist"], body: try PropertyListEncoder().encode(settings)))
        let result = try await apiClient.value(for: Endpoint<Settings>(.get, "/settings", decoding: .propertyList()))
        #expect(result == settings)
    }

    @Test("null cannot be a property list: the call fails and nothing is sent")
    func nullIsInvalid() async {
        stub.stub(with: .text("ok"))
        let result = await apiClient.POST("/settings", body: .propertyList(["a": ["b": nil]]))
        guard case .failure(.invalidRequest(let reason)) = result else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(reason.contains("a.b"))
        #expect(stub.receivedRequests.isEmpty)
    }
}
