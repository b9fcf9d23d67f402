import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// Streaming endpoints of the embedded services: a chat-completion-like event stream and an NDJSON export.
enum Streams {
    /// `POST /v1/chat/completions`: the reply to the last message, one token per Server-Sent Event, then `[DONE]`
    /// (the shape LLM APIs use), 30 ms apart.
    static func chatCompletion(_ request: RecordedRequest) -> MockResponse {
        struct Chat: Decodable {
            struct Message: Decodable { let content: String }
            let messages: [Message]
        }
        let prompt = (try? JSONDecoder().decode(Chat.self, from: request.body))?.messages.last?.content ?? ""
        let reply = "You asked: \(prompt). Streaming works on Linux too."
        var events = reply.split(separator: " ", omittingEmptySubsequences: false).enumerated().map {
            index, word -> MockServerSentEvent in
            let token = (index == 0 ? "" : " ") + word
            let chunk: JSONValue = ["choices": [["delta": ["content": .string(token)]]]]
            let data = (try? chunk.encoded()).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return MockServerSentEvent(id: String(index + 1), data: data, after: .milliseconds(30))
        }
        events.append(MockServerSentEvent(data: "[DONE]", after: .milliseconds(30)))
        return .serverSentEvents(events)
    }

    /// `GET /exports/todos.ndjson`: `count` todos, one JSON object per line, sent in small parts.
    static func ndjsonExport(count: Int) -> MockResponse {
        let parts = (1...max(1, count)).map { id -> StubChunk in
            .init(Data((#"{"id":\#(id),"title":"todo \#(id)","completed":\#(id % 2 == 0)}"# + "\n").utf8))
        }
        return MockResponse().withHeader("Content-Type", "application/x-ndjson").streaming(parts)
    }
}
