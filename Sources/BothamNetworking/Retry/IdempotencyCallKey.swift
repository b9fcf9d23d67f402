/// The `Idempotency-Key` of a call, once `IdempotencyKeyInterceptor` gave it one: the same for every attempt of the
/// call. `RetryPolicy` reads it (it sees the request before the interceptor adds the field), so it lives in the
/// retry layer, below the interceptors.
enum IdempotencyCallKey: HTTPCallValueKey {
    static let defaultValue: String? = nil
}
