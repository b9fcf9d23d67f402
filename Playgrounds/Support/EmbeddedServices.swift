import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// The services the playground talks to, served by a `MockWebServer` on the loopback interface: an httpbin-like
/// echo, a GitHub-like issues API, a todos API, Basic-auth and bearer-protected paths, a flaky endpoint and a token
/// service.
public final class EmbeddedServices: Sendable {
    /// The server; its `baseURL` is where the services live.
    public let server: MockWebServer
    let state = Lock(ServicesState())

    /// Starts the services on an ephemeral loopback port.
    public init() throws {
        server = try MockWebServer()
        let state = self.state
        server.setDispatcher { request in Routes.answer(request, state: state) }
    }

    /// The base URL, for example `http://127.0.0.1:54321`.
    public var baseURL: String {
        server.baseURL.absoluteString.hasSuffix("/")
            ? String(server.baseURL.absoluteString.dropLast()) : server.baseURL.absoluteString
    }

    /// Stops the server.
    public func shutdown() {
        server.shutdown()
    }
}

/// What the embedded services remember between requests.
struct ServicesState {
    var issues: [JSONValue] = [
        ["number": 1, "title": "Crash on launch", "state": "open"],
        ["number": 2, "title": "Support Linux", "state": "closed"],
        ["number": 3, "title": "Add retry", "state": "open"],
    ]
    var todos: [Int: JSONValue] = [
        1: ["userId": 1, "id": 1, "title": "delectus aut autem", "completed": false],
        2: ["userId": 1, "id": 2, "title": "quis ut nam facilis", "completed": true],
    ]
    var nextTodoID = 3
    var flakyCounts: [String: Int] = [:]
    var tokenGeneration = 1
    var currentToken: String { "token-\(tokenGeneration)" }
}
