import Foundation

/// The fields of an ``HTTPRequest``, in one box shared by copies of the request until one of them changes.
///
/// `@unchecked Sendable` is sound: `HTTPRequest` writes a storage only after `isKnownUniquelyReferenced` proved that
/// no other value (and so no other thread) holds it, and copies it otherwise; a storage reachable from more than one
/// value is therefore never written, only read. ``Fields`` and ``Preparation`` are themselves `Sendable`.
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
    }

    /// What preparation established about the fields, kept beside them and never part of equality: two requests
    /// with the same fields are the same request, prepared or not.
    ///
    /// Kept true by invalidation, not by comparison: a change of a field preparation checks or encodes (method,
    /// endpoint, path, parameters, headers, body) clears ``isPrepared``, and a change of the endpoint, path or
    /// parameters also clears ``resolvedURL``.
    struct Preparation: Sendable {
        /// The URL the endpoint, path and parameters resolve to, once something resolved it.
        var resolvedURL: URL?
        /// Whether the request passed preparation as it is now (only `RequestPreparation` sets it).
        var isPrepared = false
        /// Whether a preparation added the header fields of the transport it was prepared for
        /// (`TransportHeaderDefaults`); kept by later preparations, so a field an interceptor removed stays removed.
        var transportFieldsAdded = false
        /// Whether something changed a field preparation checks after the request was prepared (an
        /// `HTTPInterceptor`, for the client's requests): such a request may carry a signature over exactly its
        /// fields, so a transport must not add or change any.
        var changedAfterPreparation = false
    }

    var fields: Fields
    var preparation: Preparation
    /// The request's own response validation (`nil`: the client's). Not part of equality, as a closure cannot be
    /// compared.
    var validation: ResponseValidation?

    init(_ fields: Fields, preparation: Preparation = Preparation(), validation: ResponseValidation? = nil) {
        self.fields = fields
        self.preparation = preparation
        self.validation = validation
    }
}
