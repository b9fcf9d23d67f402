import Foundation

/// The key of a stored response: the request's URL (RFC 9111 §2: the method is part of it, and only `GET` is
/// stored) and the *credential partition* — a SHA-256 of the request's `Authorization` and `Cookie` fields as the
/// cache sees them.
///
/// So entries of different credentials never mix: a response stored for one token, one session cookie, or for no
/// credentials at all, is only ever served to a request carrying exactly the same ones, whatever the response's
/// `Cache-Control` says (even `public`). The hash, not the credential, is what is kept in memory and on disk.
/// Requests differing in other fields are told apart by the stored response's `Vary` (see ``CacheVary``).
struct CacheKey: Sendable, Hashable {
    /// The URL, without its fragment.
    let url: String
    /// Hex SHA-256 of the credentials (`""` for a request without any).
    let partition: String

    /// The key of `request` (prepared, so its URL is resolved).
    init(_ request: HTTPRequest) throws(APIClientError) {
        self.init(url: try request.resolvedURL(), headers: request.headers)
    }

    /// The key of a request for `url` carrying `headers`.
    init(url: URL, headers: HTTPHeaders) {
        self.url = Self.normalized(url)
        // One pass to learn whether there is anything to hash: most requests carry neither field.
        guard headers.fields.contains(where: { $0.name == .authorization || $0.name == .cookie }) else {
            partition = ""
            return
        }
        var credentials: [UInt8] = []
        for name in [HTTPFieldName.authorization, .cookie] {
            for value in headers.values(for: name) {
                credentials += Array(name.canonicalName.utf8) + [0x3A] + Array(value.utf8) + [0x0A]
            }
        }
        partition = SHA256Digest.hex(of: credentials)
    }

    init(url: String, partition: String) {
        self.url = url
        self.partition = partition
    }

    /// `url` as a key: its absolute string without a fragment (§4.1: the fragment is not part of the target).
    static func normalized(_ url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) else { return text }
        return String(text[..<hash])
    }

    /// One string naming the key, for the disk store's metadata.
    var combined: String { partition + " " + url }
}

/// The request fields a stored response varies on (its `Vary` field, RFC 9111 §4.1), with the values the request
/// that produced it had.
struct CacheVary: Sendable, Hashable, Codable {
    /// The lower-cased names and the request's values of them (`nil`: the request did not have the field), in the
    /// order of `Vary`.
    let fields: [Field]

    struct Field: Sendable, Hashable, Codable {
        let name: String
        let value: String?
    }

    /// Whether the response varies on everything (`Vary: *`, which never matches).
    let matchesNothing: Bool

    /// The fields `response` varies on, with the values `request` had.
    init(response: HTTPHeaders, request: HTTPHeaders) {
        let names = response.values(for: Self.fieldName).flatMap(HTTPFieldList.elements(of:))
        matchesNothing = names.contains("*")
        fields = names.map { Field(name: $0, value: Self.value(of: HTTPFieldName($0), in: request)) }
    }

    /// Whether `request` selects the stored response (§4.1): every field named by `Vary` has the same value,
    /// compared after joining repeated fields and removing the spaces around their commas.
    func matches(_ request: HTTPHeaders) -> Bool {
        guard !matchesNothing else { return false }
        return fields.allSatisfy { $0.value == Self.value(of: HTTPFieldName($0.name), in: request) }
    }

    /// The name of the first field that differs, for `Cache-Status`.
    static let fieldName = HTTPFieldName("Vary")

    private static func value(of name: HTTPFieldName, in headers: HTTPHeaders) -> String? {
        let values = headers.values(for: name)
        guard !values.isEmpty else { return nil }
        return values.flatMap { $0.split(separator: ",").map { String(HTTPFieldList.trimmingWhitespace($0)) } }
            .joined(separator: ",")
    }
}
