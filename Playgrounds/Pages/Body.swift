import BothamNetworking
import PlaygroundSupport

/// Bodies: a JSON dictionary as in Botham's README, a form, an Encodable, and a body that cannot be sent.
public enum Body: PlaygroundPage {
    /// The page's name.
    public static let name = "Body"
    /// What the page shows.
    public static let summary = "JSON, form and Encodable bodies; an unencodable body is an error, never dropped"

    struct NewIssue: Encodable {
        let title: String
        let labels: [String]
    }

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)

        let json = try await apiClient.POST(
            "/post",
            body: ["scopes": ["repo_status", "user:email"], "note": "BothamNetworking"]
        ).get().json()
        try context.check(
            json[path: "json", "scopes"] == ["repo_status", "user:email"],
            "a dictionary body arrives as JSON"
        )

        let form = try await apiClient.POST(
            "/post",
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: ["user": "jane doe", "password": "s3cr3t&more"]
        ).get().json()
        try context.check(
            form[path: "form", "password"] == "s3cr3t&more",
            "the same dictionary is form-encoded when Content-Type says so"
        )

        let encodable = try await apiClient.POST("/post", body: .json(NewIssue(title: "Bug", labels: ["crash"])))
            .get().json()
        try context.check(encodable[path: "json", "title"] == "Bug", "an Encodable body arrives as JSON")

        let invalid = await apiClient.POST("/post", body: ["ratio": .double(.nan)])
        guard case .failure(.invalidRequest(let reason)) = invalid else {
            throw PlaygroundFailure("NaN must be rejected")
        }
        try context.check(true, "NaN cannot be sent as JSON, and nothing was sent: \(reason)")
    }
}
