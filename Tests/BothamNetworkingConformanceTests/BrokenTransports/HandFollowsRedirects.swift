import BothamNetworking
import BothamNetworkingConformance
import Foundation

/// Follows redirects itself over a native transport that follows none, as a hand-written redirect loop does, with one
/// mistake such loops make. Everything else it does right: the policy's limit, method rewriting, credentials removed
/// across origins for good, the body kept on a 307 or 308.
struct HandFollowsRedirects: NativeWrapper {
    /// The one mistake.
    enum Flaw {
        /// Every field goes to every origin: the credential leak.
        case forwardsCredentials
        /// The next hop is rebuilt from the method and the URL: a 307 or 308 loses its body.
        case dropsBody
        /// A 301, 302 or 303 after a `POST` is followed with the `POST` and its body.
        case keepsMethodOnEveryStatus
        /// Credentials are dropped on every redirect, to the same origin too.
        case stripsCredentialsEverywhere
        /// Out of redirects, the loop ends by returning the last 3xx instead of failing with `tooManyRedirects`.
        case returnsTheLastRedirect
    }

    let inner: any HTTPClient
    let maxRedirects: Int
    let flaw: Flaw

    init(_ configuration: ConformanceClientConfiguration, flaw: Flaw) {
        var own = configuration
        own.redirectPolicy = .doNotFollow
        inner = OwnTransport.native.make(own)
        maxRedirects = configuration.redirectPolicy.maxRedirects
        self.flaw = flaw
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        var current = request
        for hop in 0...maxRedirects {
            let response = try await inner.send(current)
            guard maxRedirects > 0, [301, 302, 303, 307, 308].contains(response.statusCode),
                let location = response.resolvedLocation
            else { return response }
            if flaw == .returnsTheLastRedirect, hop == maxRedirects { return response }
            current = next(after: current, answered: response.statusCode, to: location)
        }
        throw .networkError(APIClientError.NetworkFailure(kind: .tooManyRedirects))
    }

    private func next(after current: HTTPRequest, answered status: Int, to location: URL) -> HTTPRequest {
        var headers = current.headers
        let crossesOrigins = !Self.sameOrigin((try? current.resolvedURL()) ?? current.url, location)
        if flaw == .stripsCredentialsEverywhere || (flaw != .forwardsCredentials && crossesOrigins) {
            for name in ["Authorization", "Proxy-Authorization", "Cookie"] { headers.remove(HTTPFieldName(name)) }
        }
        var method = current.method
        var body = flaw == .dropsBody ? nil : current.body
        if flaw != .keepsMethodOnEveryStatus, [301, 302, 303].contains(status), method != .get, method != .head {
            headers.remove(.contentType)
            method = .get
            body = nil
        }
        return current.rebuilt(method: method, url: location, headers: headers, body: body)
    }

    private static func sameOrigin(_ first: URL?, _ second: URL) -> Bool {
        guard let first else { return false }
        return first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased() && first.port == second.port
    }
}
