import BothamNetworking
import PlaygroundSupport

/// Query parameters: ordered, escaped, appended to a query already in the path.
public enum Parameters: PlaygroundPage {
    /// The page's name.
    public static let name = "Parameters"
    /// What the page shows.
    public static let summary = "query parameters, escaped and appended in order"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)
        let response = try await apiClient.GET(
            "/get?existing=kept",
            parameters: ["Parameter 1": "Value 1", "Parameter 2": "a+b&c=d", "empty": ""]
        ).get()
        let args = try response.json()["args"]
        context.say("the server parsed: \(args.map { "\($0)" } ?? "nothing")")
        try context.check(args?["existing"] == "kept", "a query already in the path is kept")
        try context.check(args?["Parameter 1"] == "Value 1", "names and values with spaces arrive intact")
        try context.check(args?["Parameter 2"] == "a+b&c=d", "+ & = inside a value are escaped and arrive intact")
        try context.check(args?["empty"] == "", "an empty value is sent as empty=")
    }
}
