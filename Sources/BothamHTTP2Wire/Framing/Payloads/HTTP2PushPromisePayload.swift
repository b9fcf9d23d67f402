extension HTTP2Frame {
    /// What a PUSH_PROMISE frame carries (RFC 9113 §6.6). We send SETTINGS_ENABLE_PUSH = 0, so the decoder
    /// refuses one as a connection error unless configured otherwise; it is parsed first, so the error can say
    /// what was promised.
    package struct PushPromisePayload: Hashable, Sendable {
        /// The stream the server promises to open (even).
        package var promisedStreamID: HTTP2StreamID
        /// The field block fragment of the promised request; from the decoder, the whole block.
        package var fieldBlock: [UInt8]
        /// END_HEADERS: the block ends here. Always true from the decoder.
        package var endHeaders: Bool
        /// The padding's length when the frame is PADDED.
        package var padding: UInt8?

        /// A PUSH_PROMISE payload promising `promisedStreamID`.
        package init(
            promisedStreamID: HTTP2StreamID, fieldBlock: [UInt8], endHeaders: Bool = true, padding: UInt8? = nil
        ) {
            self.promisedStreamID = promisedStreamID
            self.fieldBlock = fieldBlock
            self.endHeaders = endHeaders
            self.padding = padding
        }
    }
}
