import Foundation

/// Formatting shared by the logging and metrics interceptors. Everything untrusted is escaped and redacted.
enum LogFormat {
    /// `[call 7, attempt 2/4]`
    static func tag(_ context: HTTPCallContext) -> String {
        "[call \(context.callID), attempt \(context.attempt)/\(context.maxAttempts)]"
    }

    /// `12.3 ms`
    static func milliseconds(_ duration: Duration) -> String {
        duration.millisecondsText()
    }

    /// `Name: value; Name: value` with secrets redacted and control characters escaped.
    static func headers(_ headers: HTTPHeaders, redactor: Redactor) -> String {
        redactor.redact(headers).fields.map {
            "\(DebugText.printable($0.name.rawName)): \(DebugText.printable($0.value))"
        }.joined(separator: "; ")
    }

    /// The method as text, escaped.
    static func method(_ method: HTTPMethod) -> String {
        DebugText.printable(method.rawValue)
    }

    /// A description of an error that can never contain a header value, a query value or a body: underlying errors
    /// are named by their type only, because their own descriptions may hold anything.
    static func error(_ error: APIClientError) -> String {
        switch error {
        case .httpResponseError(let response): return "HTTP \(response.statusCode)"
        case .networkError(let failure): return "network error (\(failure.kind))"
        case .httpClientError(let underlying): return "HTTP client error (\(type(of: underlying)))"
        case .parsingError(let body, let underlying):
            return "parsing error of \(body.count) bytes (\(type(of: underlying)))"
        case .unsupportedURLScheme(let scheme): return "unsupported URL scheme \(DebugText.quoted(scheme))"
        case .invalidRequest: return "invalid request"
        case .interceptorError(let underlying): return "interceptor error (\(type(of: underlying)))"
        case .cancelled: return "cancelled"
        case .timeout: return "timeout"
        case .downloadDestinationError(let error): return "download destination error (\(error.kind))"
        case .retryLimitExceeded(let attempts, let last):
            let outcome: String
            switch last {
            case .success(let response): outcome = "HTTP \(response.statusCode)"
            case .failure(let error): outcome = Self.error(error)
            }
            return "retry limit exceeded after \(attempts) attempts, last: \(outcome)"
        }
    }
}
