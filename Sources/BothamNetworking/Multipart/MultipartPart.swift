import Foundation

extension MultipartFormData {
    /// One part of a ``MultipartFormData`` body.
    public struct Part: Sendable, Hashable {
        /// Where a part's bytes come from.
        package enum Content: Sendable, Hashable {
            /// Bytes in memory.
            case data(Data)
            /// A file, read when the body is encoded.
            case file(URL)
        }

        /// The field name.
        package let name: String
        /// The filename, for file parts.
        package let filename: String?
        /// The part's `Content-Type`, or `nil` for none (text fields).
        package let contentType: String?
        /// The bytes.
        package let content: Content
    }
}
