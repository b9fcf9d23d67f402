extension HTTP2FrameDecoder {
    /// Our limits on the frames a server sends.
    package struct Configuration: Hashable, Sendable {
        /// Our SETTINGS_MAX_FRAME_SIZE: a longer frame is a FRAME_SIZE_ERROR (RFC 9113 §4.2). Raise it only once
        /// the server has acknowledged the SETTINGS that announced it. Read within 2^14…2^24 − 1.
        package var maxFrameSize: Int
        /// The most octets one field block may take once its CONTINUATIONs are joined, against CONTINUATION
        /// floods (the CVE-2024-27316 kind): past it the connection ends with ENHANCE_YOUR_CALM before the excess
        /// is even buffered. By default 64 KiB, the HPACK decoder's default header list limit (a block rarely
        /// encodes larger than the fields it decodes to).
        package var maxHeaderBlockSize: Int
        /// The most CONTINUATION frames one field block may take, against floods of small or empty ones, which
        /// cost time without memory. By default 32 (a 64 KiB block in 16 KiB frames takes 4).
        package var maxContinuationFrames: Int
        /// Whether a PUSH_PROMISE is delivered. By default false: we send SETTINGS_ENABLE_PUSH = 0, so a
        /// PUSH_PROMISE is a connection error of type PROTOCOL_ERROR (§6.6, §8.4).
        package var acceptsPushPromise: Bool

        /// Limits of these values.
        package init(
            maxFrameSize: Int = Int(HTTP2Setting.minimumMaxFrameSize), maxHeaderBlockSize: Int = 64 * 1024,
            maxContinuationFrames: Int = 32, acceptsPushPromise: Bool = false
        ) {
            self.maxFrameSize = maxFrameSize
            self.maxHeaderBlockSize = maxHeaderBlockSize
            self.maxContinuationFrames = maxContinuationFrames
            self.acceptsPushPromise = acceptsPushPromise
        }

        /// ``maxFrameSize`` within the range SETTINGS_MAX_FRAME_SIZE allows.
        var effectiveMaxFrameSize: Int {
            min(max(maxFrameSize, Int(HTTP2Setting.minimumMaxFrameSize)), Int(HTTP2Setting.maximumMaxFrameSize))
        }
    }
}
