/// How nested parameters (a ``JSONValue`` dictionary, or any `Encodable`) become flat `name=value` pairs for a URL
/// query or an `application/x-www-form-urlencoded` body, following the conventions Alamofire documents.
///
/// ```swift
/// let parameters: JSONValue = ["q": "swift", "labels": ["bug", "ui"], "page": ["size": 50], "open": true]
/// let request = try apiClient.request(.get, "/search", parameters: parameters, encoding: .default)
/// // /search?labels%5B%5D=bug&labels%5B%5D=ui&open=1&page%5Bsize%5D=50&q=swift
/// ```
///
/// - Arrays: `key[]=a&key[]=b` (``ArrayEncoding/brackets``, the default), `key=a&key=b`
///   (``ArrayEncoding/noBrackets``) or `key[0]=a&key[1]=b` (``ArrayEncoding/indexed``). An empty array adds nothing.
/// - Booleans: `1`/`0` (``BoolEncoding/numeric``, the default) or `true`/`false` (``BoolEncoding/literal``).
/// - Dictionaries: `key[sub]=value`, at any depth. An empty dictionary adds nothing.
/// - `null`: left out.
/// - Order: keys sorted at every level (the default, so URLs are deterministic) or as written.
/// - Names and values are percent-encoded (RFC 3986: all but the unreserved characters; `?` and `/` stay as they
///   are), so the brackets are sent as `%5B` and `%5D`.
/// - Numbers that are not finite (NaN, infinities) and parameters that are not a dictionary are rejected with
///   ``APIClientError/invalidRequest(reason:)``.
public struct ParameterEncoding: Sendable, Hashable {
    /// Where the encoded parameters go.
    public enum Destination: Sendable, Hashable {
        /// The URL query for `GET`, `HEAD` and `DELETE`; a form body for every other method.
        case methodDependent
        /// Always the URL query.
        case queryString
        /// Always an `application/x-www-form-urlencoded` body.
        case httpBody
    }

    /// How array elements are named.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `key[]=a&key[]=b`
        case brackets
        /// `key=a&key=b`
        case noBrackets
        /// `key[0]=a&key[1]=b`
        case indexed
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0`
        case numeric
        /// `true` and `false`
        case literal
    }

    /// In which order the members of a dictionary are written.
    public enum KeyOrder: Sendable, Hashable {
        /// Sorted by key at every level, so the same parameters always give the same URL.
        case sorted
        /// In the order they were written (a ``JSONValue`` literal keeps it; an `Encodable` is decoded with its
        /// keys sorted, since encoders do not report declaration order).
        case asWritten
    }

    /// How `null` is written.
    package enum NullEncoding: Sendable, Hashable {
        /// The parameter is left out.
        case dropKey
        /// `key=`
        case dropValue
        /// `key=null`
        case null
    }

    /// Where the encoded parameters go. Default ``Destination/methodDependent``.
    package var destination: Destination
    /// How arrays are written. Default ``ArrayEncoding/brackets``.
    package var arrayEncoding: ArrayEncoding
    /// How booleans are written. Default ``BoolEncoding/numeric``.
    package var boolEncoding: BoolEncoding
    /// The order of dictionary members. Default ``KeyOrder/sorted``.
    package var keyOrder: KeyOrder
    /// How `null` is written. Default ``NullEncoding/dropKey``.
    package var nullEncoding: NullEncoding

    /// Creates an encoding; every option defaults to Alamofire's documented default.
    public init(
        destination: Destination = .methodDependent,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        keyOrder: KeyOrder = .sorted
    ) {
        self.init(
            destination: destination, arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, keyOrder: keyOrder,
            nullEncoding: .dropKey)
    }

    /// Creates an encoding that writes `null` as `nullEncoding` says.
    package init(
        destination: Destination = .methodDependent,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        keyOrder: KeyOrder = .sorted,
        nullEncoding: NullEncoding
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.keyOrder = keyOrder
        self.nullEncoding = nullEncoding
    }

    /// Every option at its default: query for `GET`/`HEAD`/`DELETE`, form body otherwise.
    public static let `default` = ParameterEncoding()
    /// The defaults, always in the URL query.
    public static let queryString = ParameterEncoding(destination: .queryString)
    /// The defaults, always in a form body.
    public static let httpBody = ParameterEncoding(destination: .httpBody)

    /// Whether parameters of a request with `method` go in the URL query (otherwise in the body).
    package func encodesInQuery(for method: HTTPMethod) -> Bool {
        switch destination {
        case .queryString: return true
        case .httpBody: return false
        case .methodDependent: return method == .get || method == .head || method == .delete
        }
    }

    /// The flat, not yet escaped `name=value` pairs for `parameters`, which must be a dictionary.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` when `parameters` is not a dictionary or holds a number
    ///   that is not finite.
    package func items(for parameters: JSONValue) throws(APIClientError) -> HTTPParameters {
        guard case .object(let members) = parameters else {
            throw .invalidRequest(reason: "parameters must be a dictionary, not \(Self.kind(of: parameters))")
        }
        var result = HTTPParameters()
        for member in ordered(members) {
            try append(member.value, name: member.key, to: &result)
        }
        return result
    }

    /// How a Botham dictionary body is form-encoded when the request's `Content-Type` is
    /// `application/x-www-form-urlencoded`: members in the order written, arrays as repeated names (`tags=a&tags=b`),
    /// booleans as `true`/`false`, `null` as an empty value, nested dictionaries as `key[sub]=`.
    static let dictionaryFormBody = ParameterEncoding(
        destination: .httpBody,
        arrayEncoding: .noBrackets,
        boolEncoding: .literal,
        keyOrder: .asWritten,
        nullEncoding: .dropValue
    )

    /// `parameters` as an escaped query string or form body: `a=1&b%5B%5D=x`.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` as ``items(for:)`` does.
    package func percentEncoded(_ parameters: JSONValue) throws(APIClientError) -> String {
        try items(for: parameters).percentEncoded
    }

    private func ordered(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard keyOrder == .sorted else { return members }
        return members.enumerated()
            .sorted { $0.element.key == $1.element.key ? $0.offset < $1.offset : $0.element.key < $1.element.key }
            .map(\.element)
    }

    private func append(_ value: JSONValue, name: String, to result: inout HTTPParameters) throws(APIClientError) {
        switch value {
        case .null:
            switch nullEncoding {
            case .dropKey: return
            case .dropValue: result.append(name, "")
            case .null: result.append(name, "null")
            }
        case .bool(let flag):
            switch boolEncoding {
            case .numeric: result.append(name, flag ? "1" : "0")
            case .literal: result.append(name, flag ? "true" : "false")
            }
        case .int(let number):
            result.append(name, String(number))
        case .double(let number):
            guard number.isFinite else {
                throw .invalidRequest(reason: "parameter \(DebugText.quoted(name)) is \(number), which cannot be sent")
            }
            let isIntegral = number == number.rounded() && abs(number) < 1e15
            result.append(name, isIntegral ? String(Int(number)) : "\(number)")
        case .string(let text):
            result.append(name, text)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try append(element, name: arrayElementName(name, index: index), to: &result)
            }
        case .object(let members):
            for member in ordered(members) {
                try append(member.value, name: "\(name)[\(member.key)]", to: &result)
            }
        }
    }

    private func arrayElementName(_ name: String, index: Int) -> String {
        switch arrayEncoding {
        case .brackets: return name + "[]"
        case .noBrackets: return name
        case .indexed: return "\(name)[\(index)]"
        }
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}
