import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Maps `URLSession` errors onto ``APIClientError``.
enum URLErrorMapping {
    static func apiClientError(for error: any Error) -> APIClientError {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .httpClientError(underlying: error) }
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout
        case .cannotConnectToHost: return .networkError(NetworkFailure(kind: .cannotConnect, underlying: urlError))
        case .networkConnectionLost:
            return .networkError(NetworkFailure(kind: .connectionLost, underlying: urlError))
        case .cannotFindHost, .dnsLookupFailed:
            return .networkError(NetworkFailure(kind: .cannotFindHost, underlying: urlError))
        case .notConnectedToInternet:
            return .networkError(NetworkFailure(kind: .notConnected, underlying: urlError))
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return .networkError(NetworkFailure(kind: .secureConnectionFailed, underlying: urlError))
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
            .cannotDecodeContentData:
            return .networkError(NetworkFailure(kind: .badServerResponse, underlying: urlError))
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .networkError(NetworkFailure(kind: .tooManyRedirects, underlying: urlError))
        case .dataLengthExceedsMaximum:
            return .networkError(NetworkFailure(kind: .responseTooLarge, underlying: urlError))
        case .unsupportedURL: return .unsupportedURLScheme(urlError.failingURL?.scheme ?? "")
        case .badURL: return .invalidRequest(reason: "URLSession rejected the URL: \(urlError.localizedDescription)")
        default: return .networkError(NetworkFailure(kind: .other, underlying: urlError))
        }
    }
}
