/// The key of a value that lives with one call: kept in ``HTTPCallContext``, shared by all the call's attempts and
/// released with the call, so an interceptor keeps per-call state without a table of its own.
///
/// ```swift
/// enum ChallengeAnswered: HTTPCallValueKey {
///     static let defaultValue = false
/// }
///
/// struct AnswerChallengeOnce: BothamResponseInterceptor {
///     func intercept(response: HTTPResponse, for request: HTTPRequest) -> ResponseInterceptorResult {
///         guard response.statusCode == 401, let call = HTTPCallContext.current, !call[ChallengeAnswered.self]
///         else { return .proceed(response) }
///         call[ChallengeAnswered.self] = true  // seen by the next attempt of this call only
///         return .retry
///     }
/// }
/// ```
///
/// A value set in one attempt is seen by the next ones; concurrent calls never see each other's values; a call that
/// ended leaves nothing behind. Every interceptor of the call that uses the same key sees the same value.
public protocol HTTPCallValueKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value of a call that has not set one.
    static var defaultValue: Value { get }
}

extension HTTPCallContext {
    /// The call's value for `key`, or its ``HTTPCallValueKey/defaultValue`` when none was set; setting it changes
    /// it for the rest of the call (every attempt, every copy of this context).
    public subscript<Key: HTTPCallValueKey>(key: Key.Type) -> Key.Value {
        get { storage.withLock { $0.values[ObjectIdentifier(key)] as? Key.Value } ?? Key.defaultValue }
        nonmutating set { storage.withLock { $0.values[ObjectIdentifier(key)] = newValue } }
    }

    /// Reads and changes the call's value for `key` in one step, so concurrent changes (an onion interceptor that
    /// calls `next` from several tasks) are never lost. `body` must not use the call's values itself.
    public func update<Key: HTTPCallValueKey, Result>(
        _ key: Key.Type,
        _ body: (inout Key.Value) -> Result
    ) -> Result {
        storage.withLock { state in state.update(ObjectIdentifier(key), default: Key.defaultValue, body) }
    }

    /// The call's value of the interceptor whose identity is `identity` (shared by its copies, distinct between
    /// instances), or `nil`: per-call state of an interceptor that may be installed more than once, with no
    /// dictionary of its own.
    func value<Value: Sendable>(of identity: InterceptorIdentity, as type: Value.Type) -> Value? {
        storage.withLock { $0.values[identity.key] as? Value }
    }

    /// Changes the value of `identity` in one step (`initial` when it has none). Nothing is stored when `body`
    /// finds no value and leaves it `nil`.
    func update<Value: Sendable, Result>(
        _ identity: InterceptorIdentity, _ body: (inout Value?) -> Result
    ) -> Result {
        storage.withLock { state in
            var value = state.values.removeValue(forKey: identity.key) as? Value
            defer { if let value { state.values[identity.key] = value } }
            return body(&value)
        }
    }
}

extension HTTPCallState {
    /// Changes the value under `key`, taking it out of the table first so that a value with storage of its own (a
    /// dictionary, an array) is changed in place rather than copied.
    mutating func update<Value: Sendable, Result>(
        _ key: ObjectIdentifier, default defaultValue: @autoclosure () -> Value, _ body: (inout Value) -> Result
    ) -> Result {
        var value = values.removeValue(forKey: key) as? Value ?? defaultValue()
        defer { values[key] = value }
        return body(&value)
    }
}

/// A unique identity for an interceptor value (a struct whose copies share it), the key of its own per-call state
/// (``HTTPCallContext/value(of:as:)``): two instances on one call keep separate state, and the copies of one instance
/// (installed as a request and as a response interceptor) share it.
final class InterceptorIdentity: Sendable {
    /// The key of this identity's entries.
    var key: ObjectIdentifier { ObjectIdentifier(self) }
}
