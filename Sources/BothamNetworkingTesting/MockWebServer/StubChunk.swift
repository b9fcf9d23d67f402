import BothamNetworking
import Foundation

/// One chunk of a streamed body, bytes after a delay: of a stub's (``StubResponse/streamed(statusCode:headers:chunks:end:)``)
/// or of a ``MockWebServer`` response's (``MockResponse/streaming(_:end:)``).
///
/// `MockWebServer` waits the delay (measured from the end of the previous chunk, or from the headers for the first
/// one), then writes the bytes as one chunk of `Transfer-Encoding: chunked` and hands it to the socket at once. A
/// chunk without bytes only waits: it is not written, because a zero-length chunk would end the body.
public struct StubChunk: Sendable, Hashable {
    /// The bytes.
    package var bytes: Data
    /// How long after the previous chunk (or the head) it arrives.
    package var delay: Duration

    /// A chunk of `bytes` arriving `delay` after the previous one.
    public init(_ bytes: Data, after delay: Duration = .zero) {
        self.bytes = bytes
        self.delay = delay
    }

    /// A chunk of UTF-8 `text` arriving `delay` after the previous one.
    public init(_ text: String, after delay: Duration = .zero) {
        self.init(Data(text.utf8), after: delay)
    }
}
