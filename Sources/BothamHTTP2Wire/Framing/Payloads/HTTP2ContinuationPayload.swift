extension HTTP2Frame {
    /// What a CONTINUATION frame carries (RFC 9113 §6.10): the next fragment of a field block.
    package struct ContinuationPayload: Hashable, Sendable {
        /// The fragment.
        package var fieldBlockFragment: [UInt8]
        /// END_HEADERS: the block ends with this frame.
        package var endHeaders: Bool

        /// A CONTINUATION of `fieldBlockFragment`.
        package init(fieldBlockFragment: [UInt8], endHeaders: Bool = true) {
            self.fieldBlockFragment = fieldBlockFragment
            self.endHeaders = endHeaders
        }
    }
}
