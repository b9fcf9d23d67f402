import Foundation

extension CacheInterceptor {
    /// Sends `request` (conditional when `stored` has validators), then serves the stored response on a `304` or
    /// within `stale-if-error`, or stores and returns the server's response.
    func fetch(
        _ request: HTTPRequest, key: CacheKey, stored: CacheEntry?, forward: String, requestControl: CacheControl,
        clock: any HTTPClock, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        let sent = stored.map { Self.conditional(request, for: $0) } ?? request
        let requestTime = clock.currentDate
        let response: HTTPResponse
        do {
            response = try await next(sent)
        } catch {
            guard let entry = stored, Self.isServerFailure(error),
                let served = serveStaleOnError(
                    entry, key: key, to: request, requestControl: requestControl, status: nil, now: clock.currentDate)
            else { throw error }
            return served
        }
        let responseTime = clock.currentDate
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
                request, key: key, stored: nil, forward: forward, requestControl: requestControl, clock: clock,
                next: next)
        }
        if let entry = stored, [500, 502, 503, 504].contains(response.statusCode),
            let served = serveStaleOnError(
                entry, key: key, to: request, requestControl: requestControl, status: response.statusCode,
                now: clock.currentDate)
        {
            return served
        }
        if request.method == .head {
            // A HEAD response is not stored; its 200 freshens (or invalidates) the stored GET response (§4.3.5).
            if let entry = stored, response.statusCode == 200 {
                freshen(entry, with: response, key: key, requestTime: requestTime, responseTime: responseTime)
            }
            return response.adding(CacheStatusField.miss(forward: forward, status: response.statusCode, stored: false))
        }
        let isStored = store(response, key: key, request: request, requestTime: requestTime, responseTime: responseTime)
        if !isStored, stored != nil, response.statusCode < 500 { storage.store.remove(key) }
        // A stored response reaches the caller with the `Date` it was stored with, as every later hit does.
        let returned =
            isStored ? response.withHeaders(CacheHeaders.dated(response.headers, receivedAt: responseTime)) : response
        return returned.adding(CacheStatusField.miss(forward: forward, status: response.statusCode, stored: isStored))
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
        if let newTag = notModified.headers[.eTag], let storedTag = entry.parsed.headers[.eTag],
            !newTag.hasPrefix("W/"), newTag != storedTag
        {
            return nil
        }
        var head = entry.head
        // A 304 without `Date` is dated at its receipt (RFC 9110 §6.6.1), so the stored `Date` moves with the
        // response time.
        head.headers = CacheHeaders.merging(
            entry.parsed.headers, with: CacheHeaders.dated(notModified.headers, receivedAt: responseTime))
        head.requestTime = requestTime.timeIntervalSince1970
        head.responseTime = responseTime.timeIntervalSince1970
        guard let updated = storage.store.update(head, for: key) else { return nil }
        return body(of: updated, key: key, for: request).map { body in
            response(
                updated, headers: updated.parsed.headers, body: body, request: notModified.request,
                status: CacheStatusField.revalidated(forward: forward))
        }
    }

    /// Updates the stored `GET` response `entry` with the fields of `headResponse`, the `200` of a `HEAD` request
    /// (RFC 9111 §4.3.5), when they describe the same representation: every validator it carries (`ETag`,
    /// `Last-Modified`) equals the stored one and its `Content-Length`, if any, is the stored body's. Otherwise the
    /// stored response is out of date and is removed. Returns whether it was updated.
    @discardableResult
    func freshen(
        _ entry: CacheEntry, with headResponse: HTTPResponse, key: CacheKey, requestTime: Date, responseTime: Date
    ) -> Bool {
        let stored = entry.parsed.headers
        let received = headResponse.headers
        let validatorsMatch = [HTTPFieldName.eTag, CachedResponseHead.lastModified].allSatisfy { name in
            received[name].map { $0 == stored[name] } ?? true
        }
        let storedLength = stored[.contentLength] ?? String(entry.head.bodyLength)
        let lengthMatches = received[.contentLength].map { $0 == storedLength } ?? true
        guard validatorsMatch, lengthMatches else {
            storage.store.remove(key)
            return false
        }
        var head = entry.head
        head.headers = CacheHeaders.merging(stored, with: CacheHeaders.dated(received, receivedAt: responseTime))
        head.requestTime = requestTime.timeIntervalSince1970
        head.responseTime = responseTime.timeIntervalSince1970
        return storage.store.update(head, for: key) != nil
    }

    /// The stored response served because the server failed at `now`, when `stale-if-error` allows.
    private func serveStaleOnError(
        _ entry: CacheEntry, key: CacheKey, to request: HTTPRequest, requestControl: CacheControl, status: Int?,
        now: Date
    ) -> HTTPResponse? {
        let freshness = CacheFreshness(entry.parsed, now: now)
        guard
            CacheDecision.servesStaleOnError(entry: entry.parsed.control, freshness: freshness, request: requestControl)
        else { return nil }
        return serve(
            entry, key: key, to: request, freshness: freshness,
            status: CacheStatusField.staleOnError(freshness, status: status))
    }

    /// `request` with the stored response's validators (§4.3.1).
    static func conditional(_ request: HTTPRequest, for entry: CacheEntry) -> HTTPRequest {
        var conditional = request
        let headers = entry.parsed.headers
        if let etag = headers[.eTag] { conditional = conditional.withHeader(.ifNoneMatch, etag) }
        if let lastModified = headers[CachedResponseHead.lastModified] {
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

    /// Revalidates `entry` in the background, once per key (`stale-while-revalidate`), timed on `clock` (the clock of
    /// the call that started it).
    func revalidateInBackground(
        _ entry: CacheEntry, key: CacheKey, request: HTTPRequest, clock: any HTTPClock, next: HTTPInterceptorNext
    ) {
        let sent = Self.conditional(request.withResponseDestination(.memory), for: entry)
        let interceptor = self
        revalidations.start(key) {
            let requestTime = clock.currentDate
            guard let response = try? await next(sent) else { return }
            let responseTime = clock.currentDate
            if sent.method == .head, response.statusCode == 200 {
                interceptor.freshen(
                    entry, with: response, key: key, requestTime: requestTime, responseTime: responseTime)
            } else if response.statusCode == 304 {
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
