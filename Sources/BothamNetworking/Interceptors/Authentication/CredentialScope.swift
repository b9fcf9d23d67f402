import Foundation

/// Which requests credentials may be attached to: those for the client's own origin (the scheme, host and port of
/// its base endpoint), and those for origins named explicitly.
///
/// A path can be an absolute URL (a pagination link, a pre-signed download URL, an upload location): credentials
/// must not follow it to another host by default.
public struct CredentialScope: Sendable, Hashable {
    /// Origins besides the base endpoint's that receive credentials, as URLs (`https://uploads.example.com`); only
    /// their scheme, host and port count.
    package var additionalOrigins: [String]

    /// The base endpoint's origin only (the default).
    @usableFromInline
    package static let baseEndpointOrigin = CredentialScope(additionalOrigins: [])

    /// The base endpoint's origin and `origins`.
    public init(additionalOrigins: [String]) {
        self.additionalOrigins = additionalOrigins
    }

    /// Whether credentials may be attached to `request`: it goes to the base endpoint's origin or to one named in
    /// `additionalOrigins`. A request whose URL does not resolve gets none (it will fail before it is sent).
    package func allows(_ request: HTTPRequest) -> Bool {
        guard let target = try? request.resolvedURL() else { return false }
        if let base = URL(string: request.baseEndpoint), !RedirectHop.crossesOrigin(from: base, to: target) {
            return true
        }
        return additionalOrigins.contains { origin in
            URL(string: origin).map { !RedirectHop.crossesOrigin(from: $0, to: target) } ?? false
        }
    }
}
