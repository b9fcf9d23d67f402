extension HTTP2Frame {
    /// What a HEADERS frame carries (RFC 9113 §6.2).
    package struct HeadersPayload: Hashable, Sendable {
        /// The field block fragment, without padding or priority fields. From the decoder: the whole field block,
        /// CONTINUATION fragments joined.
        package var fieldBlock: [UInt8]
        /// END_STREAM: no DATA follows (trailers, or a response without content).
        package var endStream: Bool
        /// END_HEADERS: the block ends here. Always true from the decoder, which joins CONTINUATIONs.
        package var endHeaders: Bool
        /// The deprecated priority fields when the PRIORITY flag is set (parsed and ignored).
        package var priority: HTTP2Priority?
        /// The padding's length when the frame is PADDED.
        package var padding: UInt8?

        /// A HEADERS payload of `fieldBlock`.
        package init(
            fieldBlock: [UInt8], endStream: Bool = false, endHeaders: Bool = true, priority: HTTP2Priority? = nil,
            padding: UInt8? = nil
        ) {
            self.fieldBlock = fieldBlock
            self.endStream = endStream
            self.endHeaders = endHeaders
            self.priority = priority
            self.padding = padding
        }
    }
}
