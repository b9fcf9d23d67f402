/// How long a call has waited for ``RateLimitInterceptor`` so far, over all its attempts (zero when it never
/// waited): what `LoggingInterceptor` reports with each answer.
package enum RateLimitCallWait: HTTPCallValueKey {
    /// No wait.
    package static let defaultValue: Duration = .zero
}
