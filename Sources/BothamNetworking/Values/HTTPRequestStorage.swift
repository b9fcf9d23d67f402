import Foundation

/// The fields of an ``HTTPRequest``, in one box shared by copies of the request until one of them changes.
///
/// `@unchecked Sendable` is sound: `HTTPRequest` writes a storage only after `isKnownUniquelyReferenced` proved that
/// no other value (and so no other thread) holds it, and copies it otherwise; a storage reachable from more than one
/// value is therefore never written, only read. ``Fields`` is itself `Sendable`.
///
/// It holds only what the user said. What preparation established about a request is the call's
/// (`RequestPreparations`, kept in the call's state), never the request's.
final class HTTPRequestStorage: @unchecked Sendable {
    /// Every field of a request. Its synthesized equality and hashing are the request's.
    struct Fields: Sendable, Hashable {
        var method: HTTPMethod
        var baseEndpoint: String
        var path: String
        var parameters: HTTPParameters
        var headers: HTTPHeaders
        var body: HTTPBody?
        var timeout: Duration?
        var responseDestination: ResponseBodyDestination = .memory

        /// Whether the fields that preparation checks and encodes are equal (the method, the endpoint, path and
        /// parameters, the headers and the body): two requests that differ only in their timeout or response
        /// destination prepare alike.
        func preparesAlike(_ other: Fields) -> Bool {
            method == other.method && baseEndpoint == other.baseEndpoint && path == other.path
                && parameters == other.parameters && headers == other.headers && body == other.body
        }
    }

    var fields: Fields
    /// The request's own response validation (`nil`: the client's). Not part of equality, as a closure cannot be
    /// compared.
    var validation: ResponseValidation?

    init(_ fields: Fields, validation: ResponseValidation? = nil) {
        self.fields = fields
        self.validation = validation
    }
}
