import BothamNetworking
import PlaygroundSupport

/// Adds a header naming itself, to show the order.
struct NamedInterceptor: BothamRequestInterceptor {
    let name: String

    func intercept(request: HTTPRequest) -> HTTPRequest {
        var headers = request.headers
        headers.add("X-Interceptor", name)
        return request.withHeaders(headers)
    }
}

/// Local and global interceptors and their order.
public enum Interceptors: PlaygroundPage {
    /// The page's name.
    public static let name = "Interceptors"
    /// What the page shows.
    public static let summary = "local and global request interceptors, local first"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)
        apiClient.requestInterceptors.append(JSONHeadersRequestInterceptor())  // shipped, as in Botham
        apiClient.requestInterceptors.append(NamedInterceptor(name: "local"))
        let global = BothamAPIClient.globalRequestInterceptors.append(NamedInterceptor(name: "global"))
        defer { BothamAPIClient.globalRequestInterceptors.remove(global) }

        let echoed = try await apiClient.GET("/headers").get().json()
        try context.check(echoed.header("Accept") == "application/json", "the JSON headers interceptor ran")
        let order = echoed.header("X-Interceptor") ?? ""
        context.say("X-Interceptor as the server saw it: \(order)")
        try context.check(order.replacingOccurrences(of: " ", with: "") == "local,global", "local ran before global")

        BothamAPIClient.globalRequestInterceptors.remove(global)
        let afterRemoval = try await apiClient.GET("/headers").get().json()
        try context.check(
            afterRemoval.header("X-Interceptor") == "local", "a removed global interceptor no longer runs")
    }
}
