/// Bearer (OAuth-style) authentication with single-flight token refresh.
///
/// ```swift
/// let authenticator = TokenAuthenticator(store: .init(token: .init(savedToken))) { rejected in
///     // Runs at most once at a time. Calls made from here skip the authenticator, so they cannot recurse.
///     let response = try await apiClient.response(
///         for: apiClient.request(.post, "/oauth/token", body: ["refresh_token": .string(refreshToken)]))
///     return TokenAuthenticator.Token(try response.decoded(as: TokenResponse.self).accessToken)
/// }
/// apiClient.interceptors.append(authenticator)
/// ```
///
/// - Every request gets `Authorization: Bearer <token>` (when the store has a token).
/// - A response that means the token was rejected (default: status 401) refreshes the token and sends the request
///   again with the new token (``intercept(_:context:next:)`` calls `next` again, within the call's budget of
///   sends). Each attempt is sent again this way at most once; a second rejection is passed on.
/// - The previous release's registration, in both ``BothamAPIClient/requestInterceptors`` and
///   ``BothamAPIClient/responseInterceptors``, still works: the response half then answers
///   ``ResponseInterceptorResult/retry`` and the client sends the call again through the request interceptors. Use
///   one registration or the other, not both.
/// - Concurrent rejections share one refresh. A rejection of a token that was already replaced does not refresh
///   again. When the refresh throws, every call waiting for it fails with that same error (as
///   ``APIClientError/interceptorError(underlying:)``, or as it is when it is an ``APIClientError``).
/// - The ``RefreshLimit`` bounds refreshes per time window, measured on the call's clock (`HTTPCallContext.clock`,
///   the client's ``BothamAPIClient/Configuration/clock``; the system clock outside a call); beyond it the 401 is
///   passed on, and the client's validation turns it into ``APIClientError/httpResponseError(_:)``.
/// - A request opts out with ``HTTPRequest/skippingTokenAuthentication()`` or the `requiresAuthentication` closure;
///   calls made inside the refresh closure always skip the authenticator.
///
/// Retries spend the call's retry budget (``BothamAPIClient/Configuration/maxRetries``), which must be at least 1.
public struct TokenAuthenticator: Sendable {
    /// The marker header of ``HTTPRequest/skippingTokenAuthentication()``; the authenticator removes it before the
    /// request is sent.
    package static let skipAuthenticationHeader: HTTPFieldName = "X-Botham-Skip-Authentication"

    /// Set while a refresh closure runs, so calls made from it skip the authenticator.
    @TaskLocal static var isRefreshing = false

    /// Holds the token.
    package let store: Store
    /// The authorization scheme. Default `Bearer`.
    package let scheme: String
    /// At most this many refreshes per window.
    package let refreshLimit: RefreshLimit
    /// Which responses mean "the token was rejected". Default: status 401.
    package let isAuthenticationFailure: @Sendable (HTTPResponse) -> Bool
    /// Which requests carry the token. Default: all (within `credentialScope`).
    package let requiresAuthentication: @Sendable (HTTPRequest) -> Bool
    /// Which requests get the token at all: by default those to the base endpoint's origin, so a token never
    /// follows an absolute URL to another host.
    package let credentialScope: CredentialScope
    private let refresh: @Sendable (Token?) async throws -> Token
    /// Keys this authenticator's state in each call's values (copies share it, so the request and the response role
    /// of one authenticator see the same state).
    private let identity = InterceptorIdentity()

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - store: Holds the current token; share one store between authenticators of the same account.
    ///   - scheme: The `Authorization` scheme, `Bearer` by default.
    ///   - refreshLimit: How many refreshes may start per window.
    ///   - isAuthenticationFailure: Which responses trigger a refresh; status 401 by default.
    ///   - requiresAuthentication: Which requests carry the token; all by default (within `credentialScope`).
    ///   - credentialScope: The origins that may receive the token: the base endpoint's by default.
    ///   - refresh: Produces a new token given the rejected one (`nil` when there was none).
    public init(
        store: Store = Store(),
        scheme: String = "Bearer",
        refreshLimit: RefreshLimit = RefreshLimit(),
        isAuthenticationFailure: @escaping @Sendable (HTTPResponse) -> Bool = { $0.statusCode == 401 },
        requiresAuthentication: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
        credentialScope: CredentialScope = .baseEndpointOrigin,
        refresh: @escaping @Sendable (_ rejectedToken: Token?) async throws -> Token
    ) {
        self.store = store
        self.scheme = scheme
        self.refreshLimit = refreshLimit
        self.isAuthenticationFailure = isAuthenticationFailure
        self.requiresAuthentication = requiresAuthentication
        self.credentialScope = credentialScope
        self.refresh = refresh
    }

    /// What the authenticator remembers about one call, in the call's own values: the token its latest attempt
    /// carried, that token's generation, and whether the call was already retried after a rejection.
    struct CallState: Sendable {
        var token: Token?
        var generation: UInt64
        var retried = false
    }

    private func callState(in call: HTTPCallContext) -> CallState? {
        call.value(of: identity, as: CallState.self)
    }

    private func record(_ call: HTTPCallContext, token: Token?, generation: UInt64) {
        call.update(identity) { (state: inout CallState?) in
            if state != nil {
                state?.token = token
                state?.generation = generation
            } else {
                state = CallState(token: token, generation: generation)
            }
        }
    }

    private func markRetried(_ call: HTTPCallContext) {
        call.update(identity) { (state: inout CallState?) in state?.retried = true }
    }

    private func forget(_ call: HTTPCallContext?) {
        call?.update(identity) { (state: inout CallState?) in state = nil }
    }
}

extension TokenAuthenticator: BothamRequestInterceptor {
    /// Attaches the current token, unless the request opted out.
    public func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        let call = HTTPCallContext.current
        if request.headers.contains(Self.skipAuthenticationHeader) {
            forget(call)
            return request.withHeader(Self.skipAuthenticationHeader, nil)
        }
        guard !Self.isRefreshing, requiresAuthentication(request), credentialScope.allows(request) else {
            forget(call)
            return request
        }
        let (token, generation) = await store.current()
        if let call {
            record(call, token: token, generation: generation)
        }
        guard let token else { return request }
        return request.withHeader(.authorization, "\(scheme) \(token.value)")
    }
}

extension TokenAuthenticator: BothamResponseInterceptor {
    /// Refreshes and retries on an authentication failure; passes everything else on.
    public func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        let call = HTTPCallContext.current
        guard !Self.isRefreshing, isAuthenticationFailure(response) else {
            forget(call)
            return .proceed(response)
        }
        let rejected: Token?
        let seenGeneration: UInt64?
        if let call {
            guard let state = callState(in: call), !state.retried else {
                forget(call)
                return .proceed(response)
            }
            rejected = state.token
            seenGeneration = state.generation
        } else {
            // Used outside a client call: judge by the header the request carried.
            let prefix = scheme + " "
            guard let header = request.headers[.authorization], header.hasPrefix(prefix) else {
                return .proceed(response)
            }
            rejected = Token(String(header.dropFirst(prefix.count)))
            seenGeneration = nil
        }
        do {
            _ = try await store.token(
                replacing: rejected,
                seenGeneration: seenGeneration,
                limit: refreshLimit,
                now: call?.clock.now ?? SystemClock().now,
                refresh: refresh
            )
        } catch RefreshLimitExceeded.refreshLimitExceeded {
            forget(call)
            return .proceed(response)
        } catch {
            forget(call)
            return .fail(APIClientError(error))
        }
        if let call { markRetried(call) }
        return .retry
    }

    /// Forgets the call and passes the error on.
    public func intercept(error: APIClientError, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
        forget(HTTPCallContext.current)
        return .fail(error)
    }
}

extension TokenAuthenticator: HTTPInterceptor {
    /// Attaches the current token, sends the request on and, when the response means the token was rejected,
    /// refreshes the token (one refresh for every call rejected at once, within the ``RefreshLimit``) and sends the
    /// request once more with the new one. A request that opted out, or is outside the credential scope, is passed
    /// on untouched.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        if request.headers.contains(Self.skipAuthenticationHeader) {
            return try await next(request.withHeader(Self.skipAuthenticationHeader, nil))
        }
        guard !Self.isRefreshing, requiresAuthentication(request), credentialScope.allows(request) else {
            return try await next(request)
        }
        let (token, generation) = await store.current()
        let response = try await next(authorized(request, with: token))
        guard isAuthenticationFailure(response) else { return response }
        let fresh: Token
        do {
            fresh = try await store.token(
                replacing: token, seenGeneration: generation, limit: refreshLimit, now: context.clock.now,
                refresh: refresh)
        } catch RefreshLimitExceeded.refreshLimitExceeded {
            return response
        } catch {
            throw APIClientError(error)
        }
        return try await next(authorized(request, with: fresh))
    }

    /// `request` with `Authorization: <scheme> <token>`, or as it is without a token.
    private func authorized(_ request: HTTPRequest, with token: Token?) -> HTTPRequest {
        guard let token else { return request }
        return request.withHeader(.authorization, "\(scheme) \(token.value)")
    }
}

extension HTTPRequest {
    /// A copy that ``TokenAuthenticator`` leaves alone: no token is attached and a 401 does not refresh. The marker
    /// header is removed before sending (it would be sent if no authenticator is installed).
    public func skippingTokenAuthentication() -> HTTPRequest {
        withHeader(TokenAuthenticator.skipAuthenticationHeader, "1")
    }
}
