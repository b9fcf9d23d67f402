import Foundation

extension HTTPBody {
    /// The media type of property list bodies: `application/x-plist`.
    package static let propertyListContentType = "application/x-plist"

    /// A dictionary (or any ``JSONValue`` without `null`, which property lists cannot express) as a property list,
    /// sent as `application/x-plist` unless the request has a `Content-Type`.
    ///
    /// ```swift
    /// apiClient.POST("/settings", body: .propertyList(["volume": 11, "tags": ["a", "b"]], format: .binary))
    /// ```
    ///
    /// Encoding happens now; a failure is kept and reported as ``APIClientError/invalidRequest(reason:)`` when the
    /// request is sent, and nothing is sent.
    public static func propertyList(_ value: JSONValue, format: HTTPBody.PropertyListFormat = .xml) -> HTTPBody {
        if let path = HTTPBody.PropertyListFormat.nullPath(in: value, path: "") {
            return HTTPBody(
                storage: .failed(reason: "a property list cannot hold null (at \(path.isEmpty ? "the top" : path))")
            )
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format.foundationFormat
        return propertyList(value, encoder: encoder)
    }

    /// Any `Encodable`, encoded now with `encoder` (whose `outputFormat` chooses XML or binary) and sent as
    /// `application/x-plist` unless the request has a `Content-Type`.
    public static func propertyList<Value: Encodable>(_ value: Value, encoder: PropertyListEncoder) -> HTTPBody {
        do {
            return HTTPBody(storage: .data(try encoder.encode(value), contentType: propertyListContentType))
        } catch {
            return HTTPBody(
                storage: .failed(reason: "the \(Value.self) body could not be encoded as a property list: \(error)")
            )
        }
    }
}
