import Foundation

/// Gives every `POST` and `PATCH` call an `Idempotency-Key` (the IETF httpapi draft, Stripe's convention) that stays
/// the same on every attempt of the call, so ``RetryPolicy`` may retry it: a server that saw the key applies the
/// request once however many times it arrives.
///
/// ```swift
/// apiClient.interceptors.append(IdempotencyKeyInterceptor())
/// apiClient.configuration.retrier = RetryPolicy()  // now retries a POST that got a 429 or a 503, with its key
/// ```
///
/// - The key is random (a UUID), made at the call's first attempt and kept in the call's values
///   (``HTTPCallValueKey``): every retry sends the same one, and no two calls share one.
/// - A request that already has an `Idempotency-Key` keeps it (give a call your own key to make it safe to repeat
///   across calls, such as after the app restarts); other methods are left alone.
/// - Append it before a signer, so the signature covers the key.
public struct IdempotencyKeyInterceptor: Sendable {
    /// The call's key, once its first attempt made one.
    private let newKey: @Sendable () -> String

    /// Creates the interceptor.
    public init() {
        self.init(newKey: { UUID().uuidString })
    }

    /// Creates an interceptor whose keys come from `newKey` (tests).
    package init(newKey: @escaping @Sendable () -> String) {
        self.newKey = newKey
    }
}

extension IdempotencyKeyInterceptor: HTTPInterceptor {
    /// Adds the call's key to a `POST` or `PATCH` that has none.
    public func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        guard request.method == .post || request.method == .patch, !request.headers.contains(.idempotencyKey) else {
            return try await next(request)
        }
        let candidate = newKey()
        let key = context.update(IdempotencyCallKey.self) { (key: inout String?) -> String in
            if let key { return key }
            key = candidate
            return candidate
        }
        return try await next(request.withHeader(.idempotencyKey, key))
    }
}

extension HTTPFieldName {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    package static let idempotencyKey = HTTPFieldName("Idempotency-Key")
}
