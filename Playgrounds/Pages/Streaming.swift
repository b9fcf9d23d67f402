import BothamNetworking
import Foundation
import PlaygroundSupport

/// One chunk of a chat completion stream, as LLM APIs send them.
struct ChatCompletionChunk: Decodable, Sendable {
    struct Choice: Decodable, Sendable {
        struct Delta: Decodable, Sendable { let content: String? }
        let delta: Delta
    }
    let choices: [Choice]
}

/// A todo of the NDJSON export.
struct ExportedTodo: Decodable, Sendable {
    let id: Int
    let title: String
}

/// Streaming: tokens of a chat completion as Server-Sent Events, printed as they arrive, and an NDJSON export
/// decoded line by line.
public enum Streaming: PlaygroundPage {
    /// The page's name.
    public static let name = "Streaming"
    /// What the page shows.
    public static let summary = "stream a chat completion as Server-Sent Events and an NDJSON export, as they arrive"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.servicesURL)

        let started = ContinuousClock.now
        let response = try await apiClient.stream(
            .post, "/v1/chat/completions",
            body: ["model": "botham-1", "stream": true, "messages": [["role": "user", "content": "hello"]]]
        )
        try context.check(
            response.head.headers[.contentType] == "text/event-stream", "the head arrives first: an event stream")
        var reply = ""
        var complete = false  // only `[DONE]` says the answer is whole
        var firstTokenAfter: Duration?
        print("  ", terminator: "")
        for try await event in response.events {
            if event.data == "[DONE]" {
                complete = true
                break
            }
            let chunk = try event.decoded(as: ChatCompletionChunk.self)
            let token = chunk.choices.first?.delta.content ?? ""
            if firstTokenAfter == nil { firstTokenAfter = ContinuousClock.now - started }
            print(token, terminator: "")
            fflush(nil)  // each token shows the moment it arrives
            reply += token
        }
        print()
        // A stream that ends before `[DONE]` is an incomplete answer: an error, not a shorter reply.
        try context.check(complete, "the stream ended with [DONE], not before it")
        try context.check(reply.hasPrefix("You asked: hello."), "the tokens form the reply: \(reply)")
        let total = ContinuousClock.now - started
        try context.check(
            (firstTokenAfter ?? total) < total / 2,
            "the first token was printed long before the last one arrived")

        var ids: [Int] = []
        let export = try await apiClient.stream(.get, "/exports/todos.ndjson", parameters: ["count": "25"])
        for try await todo in export.jsonLines(decoding: ExportedTodo.self) { ids.append(todo.id) }
        try context.check(ids == Array(1...25), "an NDJSON export of 25 todos, decoded one line at a time")
    }
}
