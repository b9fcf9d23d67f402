import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps `URLSession` errors onto ``APIClientError``, deliberately (details and measured Linux causes:
/// `docs/URLErrorMapping.md`).
///
/// | URLSession error                                        | APIClientError                              |
/// |---------------------------------------------------------|---------------------------------------------|
/// | any error after the transport rejected the server (6)   | `.networkError(.secureConnectionFailed)`    |
/// | `CancellationError`, `.cancelled`                       | `.cancelled`                                |
/// | `.timedOut`                                             | `.timeout`                                  |
/// | `.cannotConnectToHost` (connection refused)             | `.networkError(.cannotConnect)`             |
/// | `.networkConnectionLost`                                | `.networkError(.connectionLost)`            |
/// | `.unknown` after the response head (1)                  | `.networkError(.connectionLost)`            |
/// | `.cannotFindHost`, `.dnsLookupFailed`                   | `.networkError(.cannotFindHost)`            |
/// | `.notConnectedToInternet`, `.dataNotAllowed`, …         | `.networkError(.notConnected)`              |
/// | `.secureConnectionFailed`, certificate errors           | `.networkError(.secureConnectionFailed)`    |
/// | `.badServerResponse` (2), `.cannotParseResponse`, …     | `.networkError(.badServerResponse)`         |
/// | `.unsupportedURL` for an `http(s)` URL (3)              | `.networkError(.badServerResponse)`         |
/// | `.unsupportedURL` for another scheme                    | `.unsupportedURLScheme(scheme)`             |
/// | `.httpTooManyRedirects`, `.redirectToNonExistentLocation` | `.networkError(.tooManyRedirects)`        |
/// | `.dataLengthExceedsMaximum`                             | `.networkError(.responseTooLarge)`          |
/// | `.badURL`                                               | `.invalidRequest(reason:)`                  |
/// | `.unknown` with a TLS message (5)                       | `.networkError(.secureConnectionFailed)`    |
/// | `.unknown` before a response head (4)                   | `.networkError(.badServerResponse)`         |
/// | any other `URLError`                                    | `.networkError(.other)`                     |
/// | any other error                                         | `.httpClientError(underlying:)`             |
///
/// (1) libcurl's "transfer closed with N bytes remaining" (a body shorter than its `Content-Length`, a connection
/// closed mid-body, a truncated or malformed chunked body) reaches Linux as `URLError(.unknown)`.
/// (2) An empty reply: the server closed the connection without sending a byte.
/// (3) On Linux a malformed status line ("Unsupported HTTP version", "HTTP/0.9") is reported as `.unsupportedURL`;
/// the client only ever sends `http` and `https` URLs, so it is the server's fault.
/// (4) libcurl's "Failed writing header": a header line it cannot parse, or a header block over its 100 KiB limit.
/// (5) On Linux an untrusted, self-signed or expired certificate, a host name the certificate does not cover, or a
/// failed handshake arrives as `URLError(.unknown)` whose message starts with "SSL" (libcurl's wording).
/// (6) Apple platforms: the transport cancelled the server-trust challenge (custom roots, a pin mismatch), so the
/// task ends with `.cancelled`; the ``TLSError`` saying why is the ``APIClientError/NetworkFailure/underlying``.
///
/// Every `.networkError` keeps the `URLError` as ``APIClientError/NetworkFailure/underlying``. Errors the transport raises itself
/// (not from URLSession): its own time limits (``TransportLimits``) → `.timeout`; the caller's cancellation →
/// `.cancelled`; the redirect policy's limit → `.networkError(.tooManyRedirects)`; the body limits
/// (`maxResponseBytes`, `maxFileResponseBytes`) → `.networkError(.responseTooLarge)`.
enum URLErrorMapping {
    /// The error for `error`; `afterResponseHead` says whether a response head had arrived (an unnamed libcurl
    /// failure after it means the body was cut short); `tlsFailure` is why the transport rejected the server, if
    /// it did.
    static func apiClientError(
        for error: any Error, afterResponseHead: Bool = false, tlsFailure: TLSError? = nil
    ) -> APIClientError {
        if let tlsFailure {
            return .networkError(APIClientError.NetworkFailure(kind: .secureConnectionFailed, underlying: tlsFailure))
        }
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .httpClientError(underlying: error) }
        func network(_ kind: APIClientError.NetworkFailure.Kind) -> APIClientError {
            .networkError(APIClientError.NetworkFailure(kind: kind, underlying: urlError))
        }
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout
        case .cannotConnectToHost: return network(.cannotConnect)
        case .networkConnectionLost: return network(.connectionLost)
        case .unknown:
            // libcurl names TLS failures only in the message ("SSL certificate problem: …", "SSL: no alternative
            // certificate subject name matches …", "OpenSSL SSL_connect: …").
            if isTLSFailure(urlError) { return network(.secureConnectionFailed) }
            return network(afterResponseHead ? .connectionLost : .badServerResponse)
        case .cannotFindHost, .dnsLookupFailed: return network(.cannotFindHost)
        case .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return network(.notConnected)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return network(.secureConnectionFailed)
        case .clientCertificateRejected, .clientCertificateRequired:
            let reason =
                urlError.code == .clientCertificateRequired
                ? "the server requires a client certificate: set TLSConfiguration.clientIdentity"
                : "the server rejected the client certificate (TLSConfiguration.clientIdentity)"
            return .networkError(
                APIClientError.NetworkFailure(
                    kind: .secureConnectionFailed,
                    underlying: TLSError(
                        code: .clientCertificateRejected, reason: "\(reason): \(urlError.localizedDescription)")))
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
            .cannotDecodeContentData:
            return network(.badServerResponse)
        case .unsupportedURL:
            // The client only sends http(s) URLs, so on Linux this is libcurl rejecting the server's status line.
            guard let scheme = urlError.failingURL?.scheme?.lowercased(), scheme != "http", scheme != "https" else {
                return network(.badServerResponse)
            }
            return .unsupportedURLScheme(scheme)
        case .httpTooManyRedirects, .redirectToNonExistentLocation: return network(.tooManyRedirects)
        case .dataLengthExceedsMaximum: return network(.responseTooLarge)
        case .badURL: return .invalidRequest(reason: "URLSession rejected the URL: \(urlError.localizedDescription)")
        default: return network(.other)
        }
    }

    /// Whether an unnamed libcurl failure is about TLS: its message names SSL, TLS or a certificate.
    static func isTLSFailure(_ error: URLError) -> Bool {
        let message = ((error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription)
            .lowercased()
        return message.hasPrefix("ssl") || message.contains("ssl certificate") || message.contains("ssl_connect")
            || message.contains("certificate") || message.contains("tls handshake")
    }
}
