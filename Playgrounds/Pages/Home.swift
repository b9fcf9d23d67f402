import BothamNetworking
import PlaygroundSupport

/// The original playground's first page: a client per service and a request with each verb.
public enum Home: PlaygroundPage {
    /// The page's name.
    public static let name = "Home"
    /// What the page shows.
    public static let summary = "one BothamAPIClient per service, a request with each verb"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)

        let get = await apiClient.GET("/get")
        try context.check((try? get.get().statusCode) == 200, "GET /get answered 200")

        for (verb, result) in [
            ("POST", await apiClient.POST("/post")),
            ("PUT", await apiClient.PUT("/put")),
            ("PATCH", await apiClient.PATCH("/patch")),
            ("DELETE", await apiClient.DELETE("/delete")),
        ] {
            let method = (try? result.get().json())?["method"]?.stringValue
            try context.check(
                (try? result.get().statusCode) == 200 && (context.usesRealServer || method == verb),
                "\(verb) reached the server as \(verb)"
            )
        }

        let missing = await apiClient.GET("/status/404")
        guard case .failure(.httpResponseError(let response)) = missing else {
            throw PlaygroundFailure("a 404 must be an httpResponseError")
        }
        try context.check(response.statusCode == 404, "a 404 comes back as httpResponseError with its status")
    }
}
