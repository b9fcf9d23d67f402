import BothamNetworking

/// The redirect policy of ``NativeHTTPClient``, now the ``BothamNetworking/RedirectPolicy`` both transports share.
@available(*, deprecated, renamed: "RedirectPolicy")
public typealias NativeRedirectPolicy = RedirectPolicy

extension RedirectPolicy {
    /// Follows up to 10 redirects (the first default of ``NativeHTTPClient``, which now follows
    /// ``BothamNetworking/RedirectPolicy/follow``).
    @available(*, deprecated, message: "use .follow (20 redirects, the default) or .followAtMost(10)")
    public static var standard: RedirectPolicy { .followAtMost(10) }
}
