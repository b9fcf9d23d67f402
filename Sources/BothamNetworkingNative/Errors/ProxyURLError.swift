/// A proxy URL (``ProxyServer/init(url:)``, or a proxy variable of the environment) that cannot be used.
///
/// Its ``reason`` never shows the password the URL may carry.
public struct ProxyURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for people.
    public let reason: String

    /// An error with its reason.
    package init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { "invalid proxy: \(reason)" }
}
