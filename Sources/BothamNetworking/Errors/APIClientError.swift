import Foundation

/// Why a call did not produce the response the caller wanted.
///
/// Botham's taxonomy, with the information it used to lose restored: an HTTP error keeps the whole response, a
/// network error keeps its cause, a parsing error keeps the body.
public enum APIClientError: Error {
    /// The server answered with a status the client's validation rejects (by default any non-2xx). The response
    /// carries the status code, headers, body and the request.
    case httpResponseError(HTTPResponse)
    /// The network failed: connection refused or lost, host not found, not connected, TLS failure, …
    case networkError(APIClientError.NetworkFailure)
    /// The HTTP client (transport) failed for another reason; `underlying` is its error.
    case httpClientError(underlying: any Error)
    /// The body could not be decoded; `body` is what arrived.
    case parsingError(body: Data, underlying: any Error)
    /// The URL's scheme is not `http` or `https`.
    case unsupportedURLScheme(String)
    /// The request is malformed (bad endpoint or path, invalid header, body that cannot be encoded); nothing was
    /// sent.
    case invalidRequest(reason: String)
    /// A request or response interceptor threw `underlying`.
    case interceptorError(underlying: any Error)
    /// The call was cancelled (its Task or its handle).
    case cancelled
    /// An attempt or the call's deadline ran out.
    case timeout
    /// The response body could not be written to the request's ``HTTPRequest/responseDestination`` (the file exists,
    /// its folder is missing, the disk is full, …). Raised before anything is sent when the problem is known then.
    case downloadDestinationError(ResponseBodyDestination.Failure)
    /// The retry budget was spent; `attempts` were made and `lastOutcome` is what the final attempt produced.
    indirect case retryLimitExceeded(attempts: Int, lastOutcome: Result<HTTPResponse, APIClientError>)

    /// The response of an HTTP error, or of the last attempt when the retry budget was spent on responses.
    public var response: HTTPResponse? {
        switch self {
        case .httpResponseError(let response): return response
        case .retryLimitExceeded(_, .success(let response)): return response
        case .retryLimitExceeded(_, .failure(let error)): return error.response
        default: return nil
        }
    }

    /// The status code of ``response``, if there is one.
    public var statusCode: Int? { response?.statusCode }

    /// Makes an error from anything thrown inside a call: `APIClientError` passes through, `CancellationError`
    /// becomes ``cancelled``, anything else ``interceptorError(underlying:)``.
    package init(_ error: any Error) {
        if let error = error as? APIClientError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .interceptorError(underlying: error)
        }
    }
}

extension APIClientError: CustomStringConvertible {
    /// A message a person can act on. A response body in it has the fields ``Redactor/default`` hides redacted.
    public var description: String {
        switch self {
        case .httpResponseError(let response):
            return
                "The server answered \(response.statusCode) to \(response.request): "
                + DebugText.body(
                    Redactor.default.redact(body: response.body, contentType: response.headers[.contentType]),
                    limit: 200)
        case .networkError(let failure):
            return "Network error: \(failure)"
        case .httpClientError(let underlying):
            return "The HTTP client failed: \(underlying)"
        case .parsingError(let body, let underlying):
            return "The response body (\(body.count) bytes) could not be decoded: \(underlying)"
        case .unsupportedURLScheme(let scheme):
            return "Unsupported URL scheme \(DebugText.quoted(scheme)): only http and https are allowed"
        case .invalidRequest(let reason):
            return "Invalid request, nothing was sent: \(reason)"
        case .interceptorError(let underlying):
            return "An interceptor failed the call: \(underlying)"
        case .cancelled:
            return "The call was cancelled"
        case .timeout:
            return "The call timed out"
        case .downloadDestinationError(let error):
            return error.description
        case .retryLimitExceeded(let attempts, let lastOutcome):
            let last: String
            switch lastOutcome {
            case .success(let response): last = "status \(response.statusCode)"
            case .failure(let error): last = error.description
            }
            return "Gave up after \(attempts) attempts; the last one ended with \(last)"
        }
    }
}

extension APIClientError: LocalizedError {
    /// The same message as ``description``.
    public var errorDescription: String? { description }
}
