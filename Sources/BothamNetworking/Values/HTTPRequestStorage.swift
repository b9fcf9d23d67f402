import Foundation

/// The fields of an ``HTTPRequest``, in one box shared by copies of the request until one of them changes.
///
/// `@unchecked Sendable` is sound: `HTTPRequest` writes a storage only after `isKnownUniquelyReferenced` proved that
/// no other value (and so no other thread) holds it, and copies it otherwise; a storage reachable from more than one
/// value is therefore never written, only read. ``Fields`` is itself `Sendable`.
final class HTTPRequestStorage: @unchecked Sendable {
    /// Every field of a request. Its synthesized equality and hashing are the request's: the resolved-URL cache
    /// compares equal and hashes nothing.
    struct Fields: Sendable, Hashable {
        var method: HTTPMethod
        var baseEndpoint: String
        var path: String
        var parameters: HTTPParameters
        var headers: HTTPHeaders
        var body: HTTPBody?
        var timeout: Duration?
        var resolvedURLCache = ResolvedURLCache()
        var responseDestination: ResponseBodyDestination = .memory
    }

    var fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }
}
