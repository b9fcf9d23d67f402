import BothamNetworking
import Foundation

/// How a call answers an HTTP proxy's demand for credentials (``ProxyAuthenticator``): one retry with the answer,
/// and the accepted answer remembered for the proxy.
extension NativeHTTPClient {
    /// The plan to retry with when `failure` is an HTTP proxy's demand for credentials and the configured
    /// ``ProxyAuthenticator`` answers it; `nil` when there is none, it gives up, or the body cannot be sent again.
    func planAnsweringProxy(
        _ failure: APIClientError, plan: ExchangePlan, request: HTTPRequest, url: URL
    ) async throws(APIClientError) -> ExchangePlan? {
        guard case .networkError(let networkFailure) = failure,
            networkFailure.kind == .proxyAuthenticationRequired,
            let refusal = networkFailure.underlying as? NativeProxyError,
            refusal.statusCode != nil,
            let authenticator = configuration.proxy.authenticator,
            let proxy = plan.route.proxy, proxy.kind == .http
        else { return nil }
        // A forwarded request's body went to the proxy already; one that cannot be produced again is not resent.
        if plan.route.forwardsToHTTPProxy && !(request.body?.isReplayable ?? true) { return nil }
        guard let credentials = await authenticator.credentials(for: refusal.challenges) else { return nil }
        if Task.isCancelled { throw .cancelled }
        var retry: ExchangePlan
        if plan.route.forwardsToHTTPProxy {
            // The credentials are in the request's head: build it again (a fresh body sequence, if streamed).
            retry = try makePlan(request, url: url, deadline: plan.deadline, answeredCredentials: credentials)
        } else {
            // A tunnel's credentials are the CONNECT's only: the request (its body untouched) stays as it was.
            var answered = proxy
            answered.credentials = credentials
            retry = plan
            retry.route = ConnectionRoute(origin: plan.route.origin, proxy: answered)
            retry.route.upgradesToWebSocket = plan.route.upgradesToWebSocket
        }
        retry.progress = plan.progress
        retry.freshConnection = plan.freshConnection
        return retry
    }

    /// Remembers the credentials an authenticator gave once the proxy let the retry through, so later calls send them
    /// up front: a tunnel that opened, or a forwarded request the proxy did not refuse with `401`/`407`.
    func rememberAnsweredCredentials(of plan: ExchangePlan, statusCode: Int) {
        guard let configured = configuration.proxy.proxy(for: plan.route.origin),
            let credentials = plan.route.proxy?.credentials,
            plan.route.needsTunnel || (statusCode != 401 && statusCode != 407)
        else { return }
        answeredProxyCredentials.withLock { $0[configured] = credentials }
    }

    /// The proxy a request to `origin` goes through, with the credentials to send: `answered` ones, else ones an
    /// authenticator gave earlier for this proxy, else the configured ones.
    func proxy(for origin: Origin, answered: BasicAuthCredentials?) -> ProxyServer? {
        guard var proxy = configuration.proxy.proxy(for: origin) else { return nil }
        // Only an authenticator's answers are remembered: without one, no lock or lookup per proxied request.
        let remembered =
            configuration.proxy.authenticator == nil ? nil : answeredProxyCredentials.withLock({ $0[proxy] })
        if let credentials = answered ?? remembered {
            proxy.credentials = credentials
        }
        return proxy
    }

    /// A `407` from an HTTP proxy a plain `http` request was forwarded to is the proxy's, not the origin's: it
    /// becomes `proxyAuthenticationRequired` with the proxy's challenges (a tunnel's `407` fails the same way).
    static func proxyAuthenticationFailure(_ response: ParsedResponse, plan: ExchangePlan) -> APIClientError? {
        guard response.statusCode == 407, plan.route.forwardsToHTTPProxy, let proxy = plan.route.proxy else {
            return nil
        }
        let what = proxy.credentials == nil ? "no credentials were configured" : "the credentials were rejected"
        let error = NativeProxyError(
            code: .authenticationRequired, proxy: proxy.description, statusCode: 407,
            challenges: AuthenticationChallenge.parse(
                response.headers, field: "Proxy-Authenticate", isProxy: true, origin: proxy.authority),
            reason: "the request for \(plan.route.origin.hostHeader) answered 407: \(what)")
        return .networkError(APIClientError.NetworkFailure(kind: .proxyAuthenticationRequired, underlying: error))
    }
}
