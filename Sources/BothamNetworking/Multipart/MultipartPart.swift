import Foundation

/// One part of a ``MultipartFormData`` body.
public struct MultipartPart: Sendable, Hashable {
    /// Where a part's bytes come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A file, read when the body is encoded.
        case file(URL)
    }

    /// The field name.
    public let name: String
    /// The filename, for file parts.
    public let filename: String?
    /// The part's `Content-Type`, or `nil` for none (text fields).
    public let contentType: String?
    /// The bytes.
    public let content: Content
}
