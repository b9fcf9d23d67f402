// Spellings of the release before both transports shared TransportLimits (#34: every rename keeps a deprecated shim
// for at least one minor version). Each reads and writes the limit it became; a limit that is now off (`nil`) reads
// as the largest value its old type can hold.
import BothamNetworking

extension NativeHTTPClient.Configuration {
    /// The longest a connection may take to open.
    @available(*, deprecated, renamed: "limits.connectTimeout")
    public var connectTimeout: Duration {
        get { limits.connectTimeout ?? .seconds(Int64.max) }
        set { limits.connectTimeout = newValue }
    }

    /// The longest an attempt may wait for the next bytes (an idle timeout).
    @available(*, deprecated, renamed: "limits.idleTimeout")
    public var requestTimeout: Duration {
        get { limits.idleTimeout ?? .seconds(Int64.max) }
        set { limits.idleTimeout = newValue }
    }

    /// The longest any attempt may take, whatever its request's `timeout`.
    @available(*, deprecated, renamed: "limits.maxAttemptTimeout")
    public var totalTimeout: Duration? {
        get { limits.maxAttemptTimeout }
        set { limits.maxAttemptTimeout = newValue }
    }

    /// The largest body held in memory.
    @available(*, deprecated, renamed: "limits.maxResponseBytes")
    public var maxResponseBytes: Int {
        get { limits.maxResponseBytes ?? .max }
        set { limits.maxResponseBytes = newValue }
    }

    /// The largest body written to a file.
    @available(*, deprecated, renamed: "limits.maxFileResponseBytes")
    public var maxFileResponseBytes: Int? {
        get { limits.maxFileResponseBytes }
        set { limits.maxFileResponseBytes = newValue }
    }
}
