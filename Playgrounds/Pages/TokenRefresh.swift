import BothamNetworking
import PlaygroundSupport

/// Bearer tokens with single-flight refresh: concurrent 401s cause exactly one refresh.
public enum TokenRefresh: PlaygroundPage {
    /// The page's name.
    public static let name = "TokenRefresh"
    /// What the page shows.
    public static let summary = "TokenAuthenticator: one refresh for many concurrent 401s, then every call succeeds"

    struct TokenResponse: Decodable {
        let accessToken: String

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
        }
    }

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.servicesURL, logDetail: .none)
        let store = TokenAuthenticator.Store(token: TokenAuthenticator.Token("expired-token"))
        let authenticator = TokenAuthenticator(store: store) { _ in
            let response = try await apiClient.response(for: apiClient.request(.post, "/token/refresh"))
            let token = try response.decoded(as: TokenResponse.self).accessToken
            print("  refreshed the token: \(token)")
            return TokenAuthenticator.Token(token)
        }
        apiClient.requestInterceptors.append(authenticator)
        apiClient.responseInterceptors.append(authenticator)

        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await apiClient.GET("/protected").get().statusCode) == 200 }
            }
            var successes = 0
            for await success in group where success { successes += 1 }
            return successes
        }
        let refreshes = await store.refreshCount
        context.say("20 concurrent calls with an expired token: \(results) succeeded, \(refreshes) refresh(es)")
        try context.check(results == 20, "every call succeeded after the refresh")
        try context.check(refreshes == 1, "exactly one refresh for all of them")
    }
}
