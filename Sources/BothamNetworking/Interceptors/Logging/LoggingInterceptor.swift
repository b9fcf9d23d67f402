/// Logs every attempt: the successor of Botham's `NSLogInterceptor`, safe with any bytes and secrets.
///
/// ```swift
/// apiClient.networkInterceptors.append(LoggingInterceptor(detail: .headers))  // logs each request as it is sent
/// // [BothamNetworking] [info] --> GET https://api.github.com/user [call 1, attempt 1/4] headers: Authorization: REDACTED
/// // [BothamNetworking] [info] <-- 200 GET https://api.github.com/user (84.2 ms, 1532 bytes) [call 1, attempt 1/4]
/// ```
///
/// - One line per event: request sent, response received, failure. Each names the call id, the attempt and, for
///   answers, how long the attempt took (and how long the call waited for ``RateLimitInterceptor``, when it did).
/// - ``Detail`` chooses how much of each event is shown: nothing, the request line and status, plus headers, plus
///   bodies (cut at `bodyLimit` bytes; non-UTF-8 bodies are shown as their size and a hex preview; file bodies by
///   their path and size, never read).
/// - The redactor hides the credential headers of `Redactor.defaultHeaderNames` (`Authorization`, `Cookie`,
///   `Set-Cookie`, `X-Api-Key`…), every header whose name contains `token`, `secret`, `password`, `signature`,
///   `api-key` or `apikey`, and whatever else it names, in headers and URLs, and the values of its body fields
///   (`password`, `client_secret`, `access_token`, `refresh_token`, `id_token` by default) in JSON and form bodies,
///   request and response alike (see ``Redactor/redact(body:contentType:)``); errors are described without their
///   underlying messages. Other bodies are printed as they are.
/// - Control characters in any printed value are escaped, so nothing can forge log lines.
///
/// Severities: requests and 1xx–3xx responses are ``LoggingInterceptor/Sink/Level/info``, 4xx–5xx ``LoggingInterceptor/Sink/Level/warning``, failures
/// ``LoggingInterceptor/Sink/Level/error`` (cancellation ``LoggingInterceptor/Sink/Level/notice``).
public struct LoggingInterceptor: HTTPInterceptor {
    /// How much of each event is logged (the severity of a line is a ``LoggingInterceptor/Sink/Level``).
    public enum Detail: Sendable, Hashable, Comparable {
        /// Nothing.
        case none
        /// Request lines, statuses, durations and sizes.
        case basic
        /// Also every header (redacted), and where the attempt spent its time when the transport measured it
        /// (``HTTPResponse/timings``: `timings: dns 0.4ms connect 0.2ms tls 3.1ms send 0.1ms wait 12.0ms …`).
        case headers
        /// Also bodies, up to the interceptor's `bodyLimit` bytes each.
        case body
    }

    /// How much is logged. Default ``Detail/basic``.
    package var detail: Detail
    /// Where lines go. Default: standard error, as `[BothamNetworking] [level] message` lines.
    package var sink: Sink
    /// What is hidden. Default ``Redactor/default``.
    package var redactor: Redactor
    /// The most body bytes shown per body. Default 4096.
    package var bodyLimit: Int

    /// Creates a logging interceptor.
    ///
    /// Every argument has a default, and the ones you pass go in this order (Swift keeps labelled arguments in
    /// declaration order): `detail`, `sink`, `redactor`, `bodyLimit`:
    ///
    /// ```swift
    /// let logging = LoggingInterceptor(detail: .headers, redactor: Redactor(headerNames: ["X-Tenant"]), bodyLimit: 512)
    /// ```
    public init(
        detail: Detail = .basic,
        sink: Sink = .standardError,
        redactor: Redactor = .default,
        bodyLimit: Int = 4_096
    ) {
        self.detail = detail
        self.sink = sink
        self.redactor = redactor
        self.bodyLimit = bodyLimit
    }

    /// Logs the request, passes it on and logs the response or the failure.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        guard detail > .none else { return try await next(request) }
        sink(.info, requestLine(request, context: context))
        let (clock, start) = (context.clock, context.clock.now)
        do {
            let response = try await next(request)
            let level: Sink.Level = response.statusCode >= 400 ? .warning : .info
            sink(level, responseLine(response, for: request, context: context, duration: clock.now - start))
            if let stream = response.bodyStream {
                // The body is logged by its size once it has been read, never buffered.
                let (sink, redactor) = (sink, redactor)
                stream.onEnd { summary in
                    var line =
                        "<-- END \(LogFormat.method(request.method)) \(redactor.redactedURL(of: request)) "
                        + "(streamed \(summary.bytes) bytes in \(LogFormat.milliseconds(summary.duration)))"
                    if let error = summary.error { line += ": \(LogFormat.error(error))" }
                    let severity: Sink.Level =
                        summary.error.map { $0.isCancellation ? Sink.Level.notice : .error } ?? .info
                    sink(severity, line + " \(LogFormat.tag(context))")
                }
            }
            return response
        } catch {
            let message =
                "<-- FAILED \(LogFormat.method(request.method)) \(redactor.redactedURL(of: request)) "
                + "(\(LogFormat.milliseconds(clock.now - start))\(Self.rateLimitWait(context))): "
                + "\(LogFormat.error(error)) \(LogFormat.tag(context))"
            sink(error.isCancellation ? .notice : .error, message)
            throw error
        }
    }

    /// The line logged when `request` is sent.
    func requestLine(_ request: HTTPRequest, context: HTTPCallContext) -> String {
        var line =
            "--> \(LogFormat.method(request.method)) \(redactor.redactedURL(of: request)) \(LogFormat.tag(context))"
        if detail >= .headers, !request.headers.isEmpty {
            line += " headers: " + LogFormat.headers(request.headers, redactor: redactor)
        }
        if detail >= .body, let body = BodyPreview.text(of: request, limit: bodyLimit, redactor: redactor) {
            line += " body: " + body
        }
        return line
    }

    /// `, waited 1500.0 ms for rate limits` when the call has waited for ``RateLimitInterceptor`` so far; empty
    /// otherwise.
    static func rateLimitWait(_ context: HTTPCallContext) -> String {
        let wait = context[RateLimitCallWait.self]
        return wait > .zero ? ", waited \(LogFormat.milliseconds(wait)) for rate limits" : ""
    }

    /// The line logged when `response` arrives.
    func responseLine(
        _ response: HTTPResponse,
        for request: HTTPRequest,
        context: HTTPCallContext,
        duration: Duration
    ) -> String {
        var line =
            "<-- \(response.statusCode) \(LogFormat.method(request.method)) \(redactor.redactedURL(of: request)) "
            + "(\(LogFormat.milliseconds(duration)), "
            + (response.bodyStream == nil ? "\(response.body.count) bytes" : "body streaming")
            + "\(Self.rateLimitWait(context))) " + LogFormat.tag(context)
        if detail >= .headers, let timings = response.timings {
            line += " timings: \(timings)"
        }
        if detail >= .headers, !response.headers.isEmpty {
            line += " headers: " + LogFormat.headers(response.headers, redactor: redactor)
        }
        if detail >= .body, response.bodyStream == nil {
            line += " body: " + BodyPreview.text(of: response, limit: bodyLimit, redactor: redactor)
        }
        return line
    }
}

extension APIClientError {
    /// Whether this is ``cancelled``.
    var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
