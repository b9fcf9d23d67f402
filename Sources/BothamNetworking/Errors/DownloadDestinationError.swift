import Foundation

extension ResponseBodyDestination {
    /// Why a response body could not be written to its destination.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public enum Kind: Sendable, Hashable {
            /// A file is already at the destination and ``ResponseBodyDestination/Options/replaceExistingFile`` is not set.
            case fileExists
            /// The destination's folder does not exist and ``ResponseBodyDestination/Options/createIntermediateDirectories`` is not set.
            case directoryMissing
            /// The destination's folders could not be created.
            case cannotCreateDirectory
            /// The body could not be written (disk full, permissions, …).
            case cannotWrite
            /// The finished body could not be moved to the destination.
            case cannotMove
        }

        /// The category.
        public let kind: Kind
        /// The file or folder concerned.
        public let url: URL
        /// What the file system said, for people.
        package let reason: String

        /// Creates an error.
        package init(kind: Kind, url: URL, reason: String = "") {
            self.kind = kind
            self.url = url
            self.reason = reason
        }

        /// A message a person can act on.
        public var description: String {
            let path = DebugText.quoted(url.path)
            let detail = reason.isEmpty ? "" : ": \(DebugText.printable(reason))"
            switch kind {
            case .fileExists: return "A file already exists at \(path) (use .replaceExistingFile to replace it)"
            case .directoryMissing:
                return "The folder \(path) does not exist (use .createIntermediateDirectories to create it)"
            case .cannotCreateDirectory: return "The folder \(path) could not be created\(detail)"
            case .cannotWrite: return "The response body could not be written to \(path)\(detail)"
            case .cannotMove: return "The response body could not be moved to \(path)\(detail)"
            }
        }
    }
}
