extension ResponseBodyDestination {
    /// How a download treats its destination.
    ///
    /// ```swift
    /// .file(url, options: [.createIntermediateDirectories, .replaceExistingFile])
    /// ```
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int

        /// Creates options from raw bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Creates the destination's missing folders. Without it a missing folder ends the call with
        /// ``ResponseBodyDestination/Failure/Kind/directoryMissing`` before anything is sent.
        public static let createIntermediateDirectories = ResponseBodyDestination.Options(rawValue: 1 << 0)

        /// Replaces a file already at the destination (atomically, once the new body is complete). Without it an existing
        /// file ends the call with ``ResponseBodyDestination/Failure/Kind/fileExists`` (before anything is sent when the name is
        /// known up front) and is left untouched.
        public static let replaceExistingFile = ResponseBodyDestination.Options(rawValue: 1 << 1)

        /// Keeps the file of a response the call rejects (validation, a response interceptor's `.fail`, a spent retry
        /// budget): it is moved to the destination and the error's response points at it with
        /// ``HTTPResponse/bodyFileURL``. Without it that file is deleted and the error's response carries the body in
        /// memory when it is at most 1 MiB (an error document, usually).
        public static let keepFileWhenRejected = ResponseBodyDestination.Options(rawValue: 1 << 2)
    }
}
