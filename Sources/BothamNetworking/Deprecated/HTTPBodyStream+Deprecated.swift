// #34 folded the three sequences a streamed body is read as into one, HTTPBodyStream.Decoded; the old names keep
// compiling for at least one minor version.

extension HTTPBodyStream {
    /// The lines of a streamed body; see ``HTTPBodyStream/lines``.
    @available(*, deprecated, renamed: "Decoded")
    public typealias Lines = Decoded<String>
    /// The events of a streamed body; see ``HTTPBodyStream/events``.
    @available(*, deprecated, renamed: "Decoded")
    public typealias Events = Decoded<ServerSentEvent>
    /// Values decoded from the lines of a streamed body; see ``HTTPBodyStream/jsonLines(decoding:decoder:maxLineBytes:)``.
    @available(*, deprecated, renamed: "Decoded")
    public typealias JSONLines<Value: Decodable & Sendable> = Decoded<Value>
}
