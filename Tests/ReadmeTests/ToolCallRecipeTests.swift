import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("The streaming article's tool-call recipe", .timeLimit(.minutes(1)))
struct ToolCallRecipeTests {
    private static func fragment(_ json: String) -> MockServerSentEvent {
        MockServerSentEvent(data: #"{"choices":[{"delta":{"tool_calls":[\#(json)]}}]}"#)
    }

    private static let interleaved = [
        MockServerSentEvent(data: #"{"choices":[{"delta":{"content":null}}]}"#),
        fragment(#"{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}"#),
        fragment(#"{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{\"tz\""}}"#),
        fragment(#"{"index":0,"function":{"arguments":"{\"city\":"}}"#),
        fragment(#"{"index":1,"function":{"arguments":":\"UTC\"}"}}"#),
        fragment(#"{"index":0,"function":{"arguments":"\"Madrid\"}"}}"#),
    ]

    @Test("Fragments with the same index are joined into one call, in index order, once [DONE] arrives")
    func joinsFragmentsByIndex() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(
            .method(.post) && .path("/v1/chat/completions"),
            with: .serverSentEvents(Self.interleaved + [MockServerSentEvent(data: "[DONE]")]))
        let apiClient = BothamAPIClient(baseEndpoint: "https://llm.example.com", httpClient: stubClient)

        let calls = try await streamToolCalls(for: "weather?", apiClient: apiClient)

        #expect(
            calls == [
                StreamedToolCall(id: "call_a", name: "get_weather", arguments: #"{"city":"Madrid"}"#),
                StreamedToolCall(id: "call_b", name: "get_time", arguments: #"{"tz":"UTC"}"#),
            ])
    }

    @Test("A stream that ends before [DONE] is an error, not fewer or shorter tool calls")
    func endBeforeDoneIsAnError() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .serverSentEvents(Self.interleaved))
        let apiClient = BothamAPIClient(baseEndpoint: "https://llm.example.com", httpClient: stubClient)

        await #expect(throws: ToolCallStreamEndedEarly.self) {
            try await streamToolCalls(for: "weather?", apiClient: apiClient)
        }
    }
}
