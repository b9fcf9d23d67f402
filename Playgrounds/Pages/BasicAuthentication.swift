import BothamNetworking
import PlaygroundSupport

/// Botham's README Basic authentication, with the realm callback.
final class GitHubBasicAuthentication: BasicAuthentication {
    let credentials: BasicAuthCredentials
    let rejectedRealms = RealmLog()

    init(username: String, password: String) {
        credentials = BasicAuthCredentials(username: username, password: password)
    }

    func onAuthenticationError(realm: String) async {
        await rejectedRealms.append(realm)
    }
}

/// The realms the server rejected the credentials for.
actor RealmLog {
    private(set) var realms: [String] = []

    func append(_ realm: String) {
        realms.append(realm)
    }
}

/// `Authorization: Basic …` on every request; a 401 with a Basic challenge calls `onAuthenticationError(realm:)`.
public enum BasicAuthenticationPage: PlaygroundPage {
    /// The page's name.
    public static let name = "BasicAuthentication"
    /// What the page shows.
    public static let summary = "Basic credentials on every request; the realm of a 401 reaches your callback"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL, logDetail: .headers)
        let basicAuth = GitHubBasicAuthentication(username: "user", password: "passwd")
        apiClient.requestInterceptors.append(basicAuth)
        apiClient.responseInterceptors.append(basicAuth)

        let accepted = try await apiClient.GET("/basic-auth/user/passwd").get().json()
        try context.check(accepted["authenticated"] == true, "the right credentials are accepted")

        let start = ContinuousClock.now
        let rejected = await apiClient.GET("/basic-auth/user/another-password")
        try context.check(rejected.statusCodeOfFailure == 401, "the wrong credentials come back as a 401 error")
        try context.check(ContinuousClock.now - start < .seconds(5), "promptly: URLSession's Linux 401 hang is avoided")
        let realms = await basicAuth.rejectedRealms.realms
        context.say("onAuthenticationError(realm:) received \(realms)")
        try context.check(realms == ["Fake Realm"], "the realm from WWW-Authenticate reached the callback")
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The status code of a failed call's response, if there was one.
    var statusCodeOfFailure: Int? {
        guard case .failure(let error) = self else { return nil }
        return error.statusCode
    }
}
