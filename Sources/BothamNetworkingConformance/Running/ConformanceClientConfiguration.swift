import BothamNetworking

/// What a check asks of the transport it is given: the settings every transport of this package takes, which a
/// transport of yours maps onto its own (or ignores, and fails the checks that depend on them).
///
/// ``TransportConformance`` calls its factory once per check (some checks twice) with the configuration the check
/// needs, for example `RedirectPolicy.doNotFollow` for the check that a 3xx comes back as it is, or a small
/// `TransportLimits.maxResponseBytes` for the size limit checks.
public struct ConformanceClientConfiguration: Sendable, Hashable {
    /// How the transport follows redirects.
    public var redirectPolicy: RedirectPolicy
    /// The transport's time and size limits.
    public var limits: TransportLimits

    /// Creates a configuration; the defaults are those of the transports of this package.
    public init(redirectPolicy: RedirectPolicy = .follow, limits: TransportLimits = TransportLimits()) {
        self.redirectPolicy = redirectPolicy
        self.limits = limits
    }
}
