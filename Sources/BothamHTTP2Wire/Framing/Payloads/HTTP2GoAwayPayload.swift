extension HTTP2Frame {
    /// What a GOAWAY frame carries (RFC 9113 §6.8).
    package struct GoAwayPayload: Hashable, Sendable {
        /// The highest stream the sender processed or may still process; streams above it were not processed
        /// and can be retried elsewhere.
        package var lastStreamID: HTTP2StreamID
        /// Why the connection ends.
        package var errorCode: HTTP2ErrorCode
        /// Diagnostic octets, opaque.
        package var debugData: [UInt8]

        /// A GOAWAY of these fields.
        package init(lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: [UInt8] = []) {
            self.lastStreamID = lastStreamID
            self.errorCode = errorCode
            self.debugData = debugData
        }
    }
}
