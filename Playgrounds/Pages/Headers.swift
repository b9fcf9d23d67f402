import BothamNetworking
import PlaygroundSupport

/// Sending headers, and reading response headers ignoring case.
public enum Headers: PlaygroundPage {
    /// The page's name.
    public static let name = "Headers"
    /// What the page shows.
    public static let summary = "request headers in, response headers out, case-insensitive"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)
        let result = await apiClient.GET(
            "/headers",
            headers: ["User-Agent": "BothamNetworking Headers", "Accept": "application/json; q=0.5"]
        )
        let response = try result.get()
        let echoed = try response.json()
        context.say("the server saw User-Agent: \(echoed.header("User-Agent") ?? "nothing")")
        try context.check(echoed.header("User-Agent") == "BothamNetworking Headers", "the User-Agent header was sent")
        try context.check(
            response.headers["content-type"] == response.headers["Content-Type"],
            "response headers are looked up ignoring case"
        )

        let injected = await apiClient.GET("/headers", headers: ["X-Evil": "value\r\nInjected: yes"])
        guard case .failure(.invalidRequest(let reason)) = injected else {
            throw PlaygroundFailure("a header with CR/LF must be rejected")
        }
        try context.check(true, "a header with CR/LF is rejected before sending: \(reason)")
    }
}
