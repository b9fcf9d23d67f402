import Foundation

extension CacheInterceptor {
    /// Sends `request` (conditional when `stored` has validators), then serves the stored response on a `304` or
    /// within `stale-if-error`, or stores and returns the server's response.
    func fetch(
        _ request: HTTPRequest, key: CacheKey, stored: CacheEntry?, forward: String, requestControl: CacheControl,
        next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        let sent = stored.map { Self.conditional(request, for: $0) } ?? request
        let requestTime = clock.now
        let response: HTTPResponse
        do {
            response = try await next(sent)
        } catch {
            guard let entry = stored, Self.isServerFailure(error),
                let served = serveStaleOnError(
                    entry, key: key, to: request, requestControl: requestControl, status: nil)
            else { throw error }
            return served
        }
        let responseTime = clock.now
        if let entry = stored, response.statusCode == 304 {
            if let served = revalidated(
                entry, by: response, key: key, request: request, requestTime: requestTime, responseTime: responseTime,
                forward: forward)
            {
                return served
            }
            // The 304 is not for what is stored (another strong validator), or the stored body is gone: ask again
            // without validators.
            storage.store.remove(key)
            return try await fetch(
                request, key: key, stored: nil, forward: forward, requestControl: requestControl, next: next)
        }
        if let entry = stored, [500, 502, 503, 504].contains(response.statusCode),
            let served = serveStaleOnError(
                entry, key: key, to: request, requestControl: requestControl, status: response.statusCode)
        {
            return served
        }
        let isStored = store(response, key: key, request: request, requestTime: requestTime, responseTime: responseTime)
        if !isStored, stored != nil, response.statusCode < 500 { storage.store.remove(key) }
        return response.adding(CacheStatusField.miss(forward: forward, status: response.statusCode, stored: isStored))
    }

    /// Stores `response` when §3 allows; returns whether it did.
    @discardableResult
    func store(
        _ response: HTTPResponse, key: CacheKey, request: HTTPRequest, requestTime: Date, responseTime: Date
    ) -> Bool {
        guard response.bodyStream == nil,
            CacheStorability.isStorable(response, request: request, requestControl: CacheControl(request.headers))
        else { return false }
        let head = CacheEntry.head(
            of: response, key: key, requestHeaders: request.headers, requestTime: requestTime,
            responseTime: responseTime, bodyLength: response.body.count, bodySHA256: "")
        let body: CacheBodySource = response.bodyFileURL.map { .file($0) } ?? .data(response.body)
        return storage.store.store(head, body: body, for: key) != nil
    }

    /// The stored response updated by `notModified` (§4.3.4) and served, or `nil` when the `304` does not select
    /// it (its strong `ETag` differs) or its body is gone.
    func revalidated(
        _ entry: CacheEntry, by notModified: HTTPResponse, key: CacheKey, request: HTTPRequest, requestTime: Date,
        responseTime: Date, forward: String
    ) -> HTTPResponse? {
        if let newTag = notModified.headers[.eTag], let storedTag = entry.head.headers[.eTag],
            !newTag.hasPrefix("W/"), newTag != storedTag
        {
            return nil
        }
        var head = entry.head
        head.headers = CacheHeaders.merging(entry.head.headers, with: notModified.headers)
        head.requestTime = requestTime.timeIntervalSince1970
        head.responseTime = responseTime.timeIntervalSince1970
        guard let updated = storage.store.update(head, for: key) else { return nil }
        return body(of: updated, key: key, for: request).map { body in
            response(
                head: head, headers: head.headers, body: body, request: notModified.request,
                status: CacheStatusField.revalidated(forward: forward))
        }
    }

    /// The stored response served because the server failed, when `stale-if-error` allows.
    private func serveStaleOnError(
        _ entry: CacheEntry, key: CacheKey, to request: HTTPRequest, requestControl: CacheControl, status: Int?
    ) -> HTTPResponse? {
        let freshness = CacheFreshness(head: entry.head, now: clock.now)
        guard
            CacheDecision.servesStaleOnError(
                entry: CacheControl(entry.head.headers), freshness: freshness, request: requestControl)
        else { return nil }
        return serve(
            entry, key: key, to: request, freshness: freshness,
            status: CacheStatusField.staleOnError(freshness, status: status))
    }

    /// `request` with the stored response's validators (§4.3.1).
    static func conditional(_ request: HTTPRequest, for entry: CacheEntry) -> HTTPRequest {
        var conditional = request
        let headers = entry.head.headers
        if let etag = headers[.eTag] { conditional = conditional.withHeader(.ifNoneMatch, etag) }
        if let lastModified = headers["Last-Modified"] {
            conditional = conditional.withHeader("If-Modified-Since", lastModified)
        }
        return conditional
    }

    /// Whether `error` is the server's or the network's failure (not the caller's: cancellation, a bad request).
    static func isServerFailure(_ error: any Error) -> Bool {
        switch error as? APIClientError {
        case .networkError, .timeout: return true
        default: return false
        }
    }

    /// Revalidates `entry` in the background, once per key (`stale-while-revalidate`).
    func revalidateInBackground(_ entry: CacheEntry, key: CacheKey, request: HTTPRequest, next: HTTPInterceptorNext) {
        let sent = Self.conditional(request.withResponseDestination(.memory), for: entry)
        let interceptor = self
        revalidations.start(key) {
            let requestTime = interceptor.clock.now
            guard let response = try? await next(sent) else { return }
            let responseTime = interceptor.clock.now
            if response.statusCode == 304 {
                if interceptor.revalidated(
                    entry, by: response, key: key, request: sent, requestTime: requestTime, responseTime: responseTime,
                    forward: "stale") == nil
                {
                    interceptor.storage.store.remove(key)
                }
            } else if !interceptor.store(
                response, key: key, request: request.withResponseDestination(.memory), requestTime: requestTime,
                responseTime: responseTime), response.statusCode < 500
            {
                interceptor.storage.store.remove(key)
            }
        }
    }
}
