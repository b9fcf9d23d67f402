// #34 made the event stream parser internal: `HTTPBodyStream.events` and `EventSource` parse a body. The public
// parser keeps compiling for at least one minor version.
import Foundation

/// The event stream interpretation of WHATWG HTML §9.2.6, fed with bytes in any chunking.
@available(*, deprecated, message: "read events with HTTPBodyStream.events or BothamAPIClient.eventSource(_:policy:)")
public struct ServerSentEventParser: Sendable {
    private var parser: ServerSentEvent.Parser

    /// The last event ID string: the `id:` in force at the last blank line.
    public var lastEventID: String { parser.lastEventID }
    /// The reconnection time the stream asked for with `retry:`, if any.
    public var reconnectionTime: Duration? { parser.reconnectionTime }

    /// Creates a parser.
    public init(lastEventID: String = "", maxLineBytes: Int = 1 << 20) {
        parser = ServerSentEvent.Parser(lastEventID: lastEventID, maxLineBytes: maxLineBytes)
    }

    /// Parses `bytes` and returns the events they complete, in order.
    public mutating func feed(_ bytes: Data) throws(APIClientError) -> [ServerSentEvent] {
        try parser.feed(bytes)
    }

    /// Parses `bytes`, calling `dispatch` with each event they complete.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, dispatch: (ServerSentEvent) -> Void
    ) throws(APIClientError) {
        try parser.feed(bytes, dispatch: dispatch)
    }
}
