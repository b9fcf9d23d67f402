/// Botham's Basic authentication, as a protocol with default implementations: provide the credentials and what to
/// do when the server rejects them.
///
/// ```swift
/// final class GitHubBasicAuthentication: BasicAuthentication {
///     let credentials = BasicAuthCredentials(username: "user", password: "pass")
///     func onAuthenticationError(realm: String) {
///         print("The credentials for \(realm) were rejected")
///     }
/// }
///
/// apiClient.interceptors.append(GitHubBasicAuthentication())
/// ```
///
/// - It sets `Authorization: Basic base64(username:password)` (UTF-8), replacing any
///   `Authorization` already there, on requests to the client's own origin only (``credentialScope``): a path that
///   is an absolute URL to another host (a pagination link, a pre-signed download URL) gets no credentials unless
///   its origin is listed.
/// - On a `401` whose `WWW-Authenticate` carries a `Basic` challenge it calls ``onAuthenticationError(realm:)``
///   with the challenge's realm (`""` when it has none) and passes the response on unchanged, so the call still
///   ends with the 401.
/// - The previous release's registration, in both ``BothamAPIClient/requestInterceptors`` and
///   ``BothamAPIClient/responseInterceptors``, does the same. Use one registration or the other, not both.
///
/// - Basic credentials are only encoded, not encrypted: sending them over plain `http` to a host other than the
///   loopback interface logs a ``LoggingInterceptor/Sink/Level/warning`` to ``insecureTransportLog`` (standard error by default), once
///   per host per process. The request is still sent: the warning is for the developer who configured it.
///
/// Conforming types must be `Sendable`: a `final class` with `let` properties or a `struct`.
public protocol BasicAuthentication: BothamRequestInterceptor, BothamResponseInterceptor, HTTPInterceptor {
    /// The credentials sent with every request.
    var credentials: BasicAuthCredentials { get }

    /// Where the warning about credentials over plain `http` goes. Default: standard error.
    var insecureTransportLog: LoggingInterceptor.Sink { get }

    /// Which requests get the credentials. Default: the base endpoint's origin only.
    var credentialScope: CredentialScope { get }

    /// Called when the server answers 401 with a Basic challenge for `realm`. May be synchronous.
    func onAuthenticationError(realm: String) async
}

extension BasicAuthentication {
    /// Standard error.
    public var insecureTransportLog: LoggingInterceptor.Sink { .standardError }

    /// The base endpoint's origin only.
    public var credentialScope: CredentialScope { .baseEndpointOrigin }

    /// Adds the `Authorization: Basic …` header to a request within ``credentialScope`` (and warns once per host
    /// when it would travel over plain `http`).
    public func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        guard credentialScope.allows(request) else { return request }
        InsecureTransportWarning.warnIfNeeded(for: request, log: insecureTransportLog)
        return request.withHeader(.authorization, credentials.authorizationHeaderValue)
    }

    /// Calls ``onAuthenticationError(realm:)`` on a 401 with a Basic challenge, then passes the response on.
    public func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        await answerChallenge(of: response)
        return .proceed(response)
    }

    /// Adds the credentials to a request within ``credentialScope``, sends it on, and calls
    /// ``onAuthenticationError(realm:)`` when the response is a 401 with a Basic challenge.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let response = try await next(try await intercept(request: request))
        await answerChallenge(of: response)
        return response
    }

    /// Calls ``onAuthenticationError(realm:)`` when `response` is a 401 with a Basic challenge.
    private func answerChallenge(of response: HTTPResponse) async {
        if response.statusCode == 401,
            let challenge = response.authenticationChallenges.first(where: { $0.hasScheme("Basic") })
        {
            await onAuthenticationError(realm: challenge.realm ?? "")
        }
    }
}
