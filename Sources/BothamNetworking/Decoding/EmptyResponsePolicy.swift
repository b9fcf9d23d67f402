/// Which responses may have an empty body that decodes to an ``EmptyResponse`` value (``Empty``, `Optional`).
///
/// By default an empty body is expected for `204 No Content`, `205 Reset Content`, `304 Not Modified` (a
/// conditional request the request accepted with ``HTTPRequest/accepting(_:)``) and any `HEAD` response. An empty
/// body anywhere else is decoded as usual (and so is a parsing error for most types).
public struct EmptyResponsePolicy: Sendable, Hashable {
    /// Status codes whose responses may be empty. Default 204, 205 and 304.
    package var statusCodes: Set<Int>
    /// Request methods whose responses may be empty. Default `HEAD`.
    package var methods: Set<HTTPMethod>
    /// Whether every empty body is allowed, whatever the status and method.
    package var allowsEveryEmptyBody: Bool

    /// Creates a policy.
    package init(
        statusCodes: Set<Int> = [204, 205, 304], methods: Set<HTTPMethod> = [.head], allowsEveryEmptyBody: Bool = false
    ) {
        self.statusCodes = statusCodes
        self.methods = methods
        self.allowsEveryEmptyBody = allowsEveryEmptyBody
    }

    /// 204, 205, 304 and `HEAD`.
    public static let `default` = EmptyResponsePolicy()
    /// Every empty body decodes to the empty value (for APIs that answer `200` with no body).
    public static let anyEmptyBody = EmptyResponsePolicy(allowsEveryEmptyBody: true)
    /// No empty body is special: it is decoded like any other.
    package static let never = EmptyResponsePolicy(statusCodes: [], methods: [])

    /// Whether `response` has an empty body this policy allows.
    package func allowsEmptyBody(in response: HTTPResponse) -> Bool {
        guard response.body.isEmpty else { return false }
        return allowsEveryEmptyBody || statusCodes.contains(response.statusCode)
            || methods.contains(response.request.method)
    }

    /// The status of an empty answer to a `method` request that this policy allows, for encoders that make
    /// responses from values (`ResponseEncoding`): `200` for a method of ``methods`` or when every empty body is
    /// allowed and 204 is not listed, else `204` when listed, else the lowest of ``statusCodes``; `nil` when the
    /// policy allows no empty body (the empty value is then encoded like any other).
    func emptyStatusCode(for method: HTTPMethod) -> Int? {
        if methods.contains(method) { return 200 }
        if statusCodes.contains(204) { return 204 }
        if allowsEveryEmptyBody { return 200 }
        return statusCodes.min()
    }

    /// The empty value of `Value` when `response`'s empty body is allowed and `Value` has one.
    func emptyValue<Value>(of type: Value.Type, for response: HTTPResponse) -> Value? {
        guard allowsEmptyBody(in: response), let emptyType = Value.self as? any EmptyResponse.Type else { return nil }
        return emptyType.emptyValue() as? Value
    }
}
