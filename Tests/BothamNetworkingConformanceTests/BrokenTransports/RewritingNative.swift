import BothamNetworking
import BothamNetworkingConformance
import Foundation

/// `NativeHTTPClient` with one mistake in what it sends or what it hands back: each request is changed before it is
/// sent, each response and each error before it is returned. The named constructors are the mistakes.
struct RewritingNative: NativeWrapper {
    let inner: any HTTPClient
    let rewriteRequest: @Sendable (HTTPRequest) throws(APIClientError) -> HTTPRequest
    /// Given the request the transport was given (before ``rewriteRequest``) and the response.
    let rewriteResponse: @Sendable (HTTPRequest, HTTPResponse) throws(APIClientError) -> HTTPResponse
    let rewriteError: @Sendable (APIClientError) -> APIClientError

    init(
        _ configuration: ConformanceClientConfiguration,
        request: @escaping @Sendable (HTTPRequest) throws(APIClientError) -> HTTPRequest = { $0 },
        response: @escaping @Sendable (HTTPRequest, HTTPResponse) throws(APIClientError) -> HTTPResponse = { $1 },
        error: @escaping @Sendable (APIClientError) -> APIClientError = { $0 }
    ) {
        inner = OwnTransport.native.make(configuration)
        rewriteRequest = request
        rewriteResponse = response
        rewriteError = error
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await inner.send(try rewriteRequest(request))
        } catch {
            throw rewriteError(error)
        }
        return try rewriteResponse(request, response)
    }

    /// Sends a `HEAD` as a `GET`, as a transport with no case for `HEAD` in its method switch does.
    static func sendingHeadAsGet(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(configuration) { request throws(APIClientError) in
            guard request.method == .head else { return request }
            return request.rebuilt(method: .get, url: try request.resolvedURL(), headers: request.headers, body: nil)
        }
    }

    /// Sends only the first 64 KiB of a body in memory, as a transport that writes once into a fixed buffer does.
    static func truncatingLargeBodies(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(configuration) { request throws(APIClientError) in
            guard let body = request.body, body.fileURL == nil,
                let (data, contentType) = try? body.encoded(forContentType: request.headers[.contentType]),
                data.count > 64 << 10
            else { return request }
            // The length field goes with the body it described, so the cut body is framed as what it is.
            var headers = request.headers
            headers.remove(.contentLength)
            return request.rebuilt(
                url: try request.resolvedURL(), headers: headers,
                body: .data(data.prefix(64 << 10), contentType: contentType))
        }
    }

    /// Adds `User-Agent: broken/1` to a request that has none, as a transport with a default user agent does.
    static func addingUserAgent(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(configuration) { request in
            guard !request.headers.contains(.userAgent) else { return request }
            var headers = request.headers
            headers.add(.userAgent, "broken/1")
            return request.withHeaders(headers)
        }
    }

    /// Drops request fields whose names start with a lowercase letter, as a transport that passes fields on through
    /// a case-sensitive list of canonical names does.
    static func droppingLowercaseFields(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(configuration) { request in
            let kept = request.headers.fields.filter { $0.name.rawName.first?.isLowercase != true }
            return request.withHeaders(HTTPHeaders(kept))
        }
    }

    /// Hands response fields back sorted by name (repeated fields keep their order), as a transport that keeps them
    /// in a sorted dictionary does.
    static func sortingResponseFields(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(
            configuration,
            response: { _, response in
                let sorted = response.headers.fields.enumerated().sorted { lhs, rhs in
                    let (left, right) = (lhs.element.name.rawName.lowercased(), rhs.element.name.rawName.lowercased())
                    return left == right ? lhs.offset < rhs.offset : left < right
                }
                return response.withHeaders(HTTPHeaders(sorted.map(\.element)))
            })
    }

    /// Throws for a 4xx or 5xx instead of returning it, as a transport that validates statuses itself does.
    static func throwingOnErrorStatus(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(
            configuration,
            response: { _, response throws(APIClientError) in
                guard response.statusCode >= 400 else { return response }
                throw .networkError(APIClientError.NetworkFailure(kind: .badServerResponse))
            })
    }

    /// Reports every network failure as `other`, as a transport that maps no system error to its kind does.
    static func reportingEveryFailureAsOther(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(
            configuration,
            error: { error in
                guard case .networkError(let failure) = error else { return error }
                return .networkError(APIClientError.NetworkFailure(kind: .other, underlying: failure.underlying))
            })
    }

    /// Downloads a body to a file by holding it in memory and writing the file at the end, and keeps the bytes on
    /// the response as well: a transport that only knows bodies in memory.
    static func bufferingDownloads(_ configuration: ConformanceClientConfiguration) -> RewritingNative {
        RewritingNative(configuration) { request in
            guard case .file = request.responseDestination else { return request }
            return request.withResponseDestination(.memory)
        } response: { request, response throws(APIClientError) in
            guard case .file(let destination, _) = request.responseDestination else { return response }
            do {
                try response.body.write(to: destination)
            } catch {
                throw .invalidRequest(reason: "could not write \(destination.path): \(error)")
            }
            return HTTPResponse(
                statusCode: response.statusCode, headers: response.headers, body: response.body,
                request: request, url: response.url, bodyFileURL: destination)
        }
    }
}
