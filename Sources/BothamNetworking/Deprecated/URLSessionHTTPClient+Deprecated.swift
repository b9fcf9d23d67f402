// Spellings of the release before both transports shared TransportLimits (#34: every rename keeps a deprecated shim
// for at least one minor version). Each reads and writes the limit it became.

extension URLSessionHTTPClient.Configuration {
    /// The time limit of an attempt whose request has no `timeout`.
    @available(*, deprecated, renamed: "limits.attemptTimeout")
    public var defaultTimeout: Duration? {
        get { limits.attemptTimeout }
        set { limits.attemptTimeout = newValue }
    }

    /// The longest any attempt may take, whatever its request's `timeout`.
    @available(*, deprecated, renamed: "limits.maxAttemptTimeout")
    public var totalDeadline: Duration? {
        get { limits.maxAttemptTimeout }
        set { limits.maxAttemptTimeout = newValue }
    }

    /// The largest body held in memory.
    @available(*, deprecated, renamed: "limits.maxResponseBytes")
    public var maxResponseBytes: Int? {
        get { limits.maxResponseBytes }
        set { limits.maxResponseBytes = newValue }
    }

    /// The largest body written to a file.
    @available(*, deprecated, renamed: "limits.maxFileResponseBytes")
    public var maxFileResponseBytes: Int? {
        get { limits.maxFileResponseBytes }
        set { limits.maxFileResponseBytes = newValue }
    }

    /// Creates a configuration from the limits' former names.
    @available(*, deprecated, message: "use init(redirectPolicy:limits:downloadSegmentBytes:) with a TransportLimits")
    @_disfavoredOverload
    public init(
        redirectPolicy: RedirectPolicy = .follow,
        defaultTimeout: Duration? = .seconds(60),
        totalDeadline: Duration? = nil,
        maxResponseBytes: Int? = 64 << 20,
        maxFileResponseBytes: Int? = nil,
        downloadSegmentBytes: Int64? = 64 << 20
    ) {
        var limits = TransportLimits()
        limits.attemptTimeout = defaultTimeout
        limits.maxAttemptTimeout = totalDeadline
        limits.maxResponseBytes = maxResponseBytes
        limits.maxFileResponseBytes = maxFileResponseBytes
        self.init(redirectPolicy: redirectPolicy, limits: limits, downloadSegmentBytes: downloadSegmentBytes)
    }
}
