/// One Server-Sent Event for ``MockResponse/serverSentEvents(_:end:)``, rendered in the WHATWG
/// `text/event-stream` format.
///
/// ```swift
/// let event = MockServerSentEvent(id: "7", event: "update", data: "line one\nline two", retry: 3000)
/// // written as "event: update\nid: 7\nretry: 3000\ndata: line one\ndata: line two\n\n"
/// ```
///
/// Every field is optional; a `nil` field is left out. Values are written as given: a line break inside `id`
/// or `event` starts a new line on the wire, which a test can use on purpose to produce a malformed stream.
public struct MockServerSentEvent: Sendable, Hashable {
    /// The event ID (an `id:` line), which the client sends back as `Last-Event-ID` when it reconnects.
    package var id: String?
    /// The event type (an `event:` line); a client that gets none dispatches a `message` event.
    package var event: String?
    /// The data; each line of a multi-line value (split at CR LF, CR or LF) is written as its own `data:` line,
    /// and the client joins them with LF.
    package var data: String?
    /// The reconnection time in milliseconds (a `retry:` line).
    package var retry: Int?
    /// A comment, ignored by clients (one `:` line per line of the comment), often used as a keep-alive.
    package var comment: String?
    /// How long the server waits before writing this event (after the previous one, or after the headers).
    package var delay: Duration

    /// Creates an event; `delay` is how long the server waits before writing it.
    public init(
        id: String? = nil,
        event: String? = nil,
        data: String? = nil,
        retry: Int? = nil,
        comment: String? = nil,
        after delay: Duration = .zero
    ) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        self.comment = comment
        self.delay = delay
    }

    /// The event as it goes on the wire: the fields in the order comment, event, id, retry, data, each on its own
    /// LF-terminated line as `name: value` (`name:` for an empty value), then a blank line that ends the event.
    package var wireText: String {
        var text = ""
        if let comment {
            for line in Self.lines(of: comment) {
                text += line.isEmpty ? ":\n" : ": \(line)\n"
            }
        }
        if let event { text += Self.field("event", event) }
        if let id { text += Self.field("id", id) }
        if let retry { text += Self.field("retry", String(retry)) }
        if let data {
            for line in Self.lines(of: data) {
                text += Self.field("data", line)
            }
        }
        return text + "\n"
    }

    /// One field line. A single space follows the colon, which the client strips, so a value that starts with a
    /// space keeps it.
    private static func field(_ name: String, _ value: some StringProtocol) -> String {
        value.isEmpty ? "\(name):\n" : "\(name): \(value)\n"
    }

    /// The lines of `text`, split at the line ends of the event-stream format (CR LF, CR, LF); an empty text is one
    /// empty line.
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }
}
