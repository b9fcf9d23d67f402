import Foundation

/// The fields of an ``HTTPRequest``, shared by copies of the request until one of them changes.
///
/// `@unchecked Sendable` is sound: `HTTPRequest` writes a storage only after `isKnownUniquelyReferenced` proved that
/// no other value (and so no other thread) holds it, and copies it otherwise; a storage reachable from more than one
/// value is therefore never written, only read. Every field is itself `Sendable`.
final class HTTPRequestStorage: @unchecked Sendable {
    var method: HTTPMethod
    var baseEndpoint: String
    var path: String
    var parameters: HTTPParameters
    var headers: HTTPHeaders
    var body: HTTPBody?
    var timeout: Duration?
    var resolvedURLCache = ResolvedURLCache()
    var responseDestination: ResponseBodyDestination = .memory

    init(
        method: HTTPMethod,
        baseEndpoint: String,
        path: String,
        parameters: HTTPParameters,
        headers: HTTPHeaders,
        body: HTTPBody?,
        timeout: Duration?
    ) {
        self.method = method
        self.baseEndpoint = baseEndpoint
        self.path = path
        self.parameters = parameters
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A new storage with the same fields.
    func copy() -> HTTPRequestStorage {
        let copy = HTTPRequestStorage(
            method: method,
            baseEndpoint: baseEndpoint,
            path: path,
            parameters: parameters,
            headers: headers,
            body: body,
            timeout: timeout
        )
        copy.resolvedURLCache = resolvedURLCache
        copy.responseDestination = responseDestination
        return copy
    }

    /// Whether every field but the resolved-URL cache is equal.
    func hasSameFields(as other: HTTPRequestStorage) -> Bool {
        method == other.method && baseEndpoint == other.baseEndpoint && path == other.path
            && parameters == other.parameters && headers == other.headers && body == other.body
            && timeout == other.timeout && responseDestination == other.responseDestination
    }

    /// Hashes the fields ``hasSameFields(as:)`` compares.
    func hashFields(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(baseEndpoint)
        hasher.combine(path)
        hasher.combine(parameters)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(timeout)
        hasher.combine(responseDestination)
    }
}
