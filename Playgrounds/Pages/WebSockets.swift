import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import PlaygroundSupport

/// A chat room's per-service client, as users write them: join, say, read the replies, leave.
struct ChatRoomService {
    let apiClient: BothamAPIClient

    func join(as name: String) async throws(APIClientError) -> WebSocket {
        try await apiClient.webSocket("/rooms/lobby", parameters: ["name": name], protocols: ["chat.v1"])
    }
}

/// WebSockets: a tiny chat against a local server (`MockWebServer` running a chat script), opened with
/// `NativeHTTPClient`: the handshake goes through the interceptors (logged here), lines go both ways, and the server
/// closes with a code and a reason.
public enum WebSockets: PlaygroundPage {
    /// The page's name.
    public static let name = "WebSockets"
    /// What the page shows.
    public static let summary = "a chat over a WebSocket: the handshake as a call, messages both ways, close codes"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        // The chat server: greets by name, answers every line, and closes the room on "/quit".
        server.enqueue(
            .webSocket(subprotocol: "chat.v1") { peer in
                let name = peer.request.queryItems.first { $0.name == "name" }?.value ?? "stranger"
                try await peer.send(.text("bot: welcome to the lobby, \(name)"))
                while let message = try await peer.receive() {
                    guard case .text(let line) = message else { continue }
                    if line == "/quit" { return try await peer.close(code: .normalClosure, reason: "see you") }
                    try await peer.send(.text("bot: \(name) said \"\(line)\""))
                }
            })
        // URLSessionHTTPClient opens WebSockets on Apple platforms only; NativeHTTPClient everywhere.
        let apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())
        apiClient.networkInterceptors.append(LoggingInterceptor(sink: PlaygroundContext.standardOutput))

        let socket = try await ChatRoomService(apiClient: apiClient).join(as: "Ada")
        try context.check(socket.subprotocol == "chat.v1", "the server chose the chat.v1 subprotocol")
        var transcript: [String] = []
        var messages = socket.messages.makeAsyncIterator()
        for line in ["hello", "how is everyone?", "/quit"] {
            if case .text(let reply)? = try await messages.next() { transcript.append(reply) }
            context.say("> \(line)")
            try await socket.send(.text(line))
        }
        while case .text(let reply)? = try await messages.next() { transcript.append(reply) }
        for reply in transcript { context.say(reply) }
        try context.check(
            transcript == [
                "bot: welcome to the lobby, Ada", "bot: Ada said \"hello\"", "bot: Ada said \"how is everyone?\"",
            ], "every line was answered, in order")
        try context.check(
            socket.closeCode == .normalClosure && socket.closeReason == "see you",
            "the server closed the room with 1000 and its reason")
        let handshake = try await server.takeRequest(timeout: .seconds(5))
        try context.check(
            handshake.header(HTTPFieldName("Upgrade")) == "websocket" && handshake.path == "/rooms/lobby",
            "the handshake was a GET asking to upgrade, recorded like any request")
    }
}
