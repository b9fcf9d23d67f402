// Spellings of the release before LoggingInterceptor.Level became Detail (#34: every rename keeps a deprecated shim
// for at least one minor version).

extension LoggingInterceptor {
    /// How much of each event is logged.
    @available(*, deprecated, renamed: "Detail")
    public typealias Level = Detail

    /// How much is logged.
    @available(*, deprecated, renamed: "detail")
    public var level: Detail {
        get { detail }
        set { detail = newValue }
    }

    /// Creates a logging interceptor.
    @available(*, deprecated, renamed: "init(detail:sink:redactor:bodyLimit:)")
    public init(level: Detail, sink: Sink = .standardError, redactor: Redactor = .default, bodyLimit: Int = 4_096) {
        self.init(detail: level, sink: sink, redactor: redactor, bodyLimit: bodyLimit)
    }
}

/// Where log lines go.
@available(*, deprecated, renamed: "LoggingInterceptor.Sink")
public typealias LogSink = LoggingInterceptor.Sink

/// The severity of a log line.
@available(*, deprecated, renamed: "LoggingInterceptor.Sink.Level")
public typealias LogLevel = LoggingInterceptor.Sink.Level
