import Foundation

/// A HAR 1.2 document (the HTTP Archive format of browsers' developer tools and of proxies such as Charles and
/// mitmproxy), as ``RecordingHTTPClient`` writes and reads it.
///
/// Only the members HAR 1.2 requires, plus `queryString`, `postData`, `content.encoding` and, for a streamed
/// response, `content._chunks` (a custom member, as HAR allows: other tools ignore it), are written; members other
/// tools add (and any other member starting with `_`) are ignored when a file is read.
package struct HTTPArchive: Sendable, Hashable, Codable {
    /// The archive's root object.
    package var log: Log

    /// An archive of `entries`, created by BothamNetworking.
    package init(entries: [Entry] = []) {
        log = Log(version: "1.2", creator: Creator(name: "BothamNetworking", version: "1"), entries: entries)
    }

    /// The `log` object: the format version, the tool that wrote it, and the exchanges.
    package struct Log: Sendable, Hashable, Codable {
        /// The HAR version, `1.2`.
        package var version: String
        /// The tool that wrote the archive.
        package var creator: Creator
        /// The exchanges, in the order they ended.
        package var entries: [Entry]
    }

    /// The `creator` object.
    package struct Creator: Sendable, Hashable, Codable {
        /// The tool's name.
        package var name: String
        /// The tool's version.
        package var version: String
    }

    /// A name and value pair: a header field, a query item or a form parameter.
    package struct NameValue: Sendable, Hashable, Codable {
        /// The name, as sent.
        package var name: String
        /// The value (percent-decoded for query items).
        package var value: String

        /// A pair.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One exchange: a request and the response it got.
    package struct Entry: Sendable, Hashable, Codable {
        /// When the request started, ISO 8601 with milliseconds.
        package var startedDateTime: String
        /// Milliseconds from the start to the end of the response body.
        package var time: Double
        /// The request, redacted.
        package var request: Request
        /// The response, redacted.
        package var response: Response
        /// Always empty: nothing is cached.
        package var cache: Cache
        /// How the time was spent.
        package var timings: Timings
        /// A note for people (for example why a body was left out).
        package var comment: String?
    }

    /// The `request` object.
    package struct Request: Sendable, Hashable, Codable {
        /// The method, for example `GET`.
        package var method: String
        /// The absolute URL, redacted.
        package var url: String
        /// `HTTP/1.1`.
        package var httpVersion: String
        /// Always empty: cookies are in ``headers``.
        package var cookies: [NameValue]
        /// The header fields in order, redacted.
        package var headers: [NameValue]
        /// The URL's query items in order, percent-decoded, redacted.
        package var queryString: [NameValue]
        /// The body, when there is one.
        package var postData: PostData?
        /// `-1`: not known.
        package var headersSize: Int
        /// The body's size in bytes (`-1` when not known, for a streamed body).
        package var bodySize: Int
    }

    /// The `postData` object: a request body.
    package struct PostData: Sendable, Hashable, Codable {
        /// The body's `Content-Type` (empty when it has none).
        package var mimeType: String
        /// The body as text (UTF-8; base64 when ``encoding`` says so — an extension HAR 1.2 makes for `content`
        /// only), or `nil` when it was not recorded (``comment`` says why).
        package var text: String?
        /// `base64` for a body that is not UTF-8 text.
        package var encoding: String?
        /// Why the body is not in ``text``.
        package var comment: String?
    }

    /// One chunk of a streamed response body as it arrived: a member of `content._chunks`.
    package struct Chunk: Sendable, Hashable, Codable {
        /// The chunk's size in bytes, as received (before redaction).
        package var size: Int
        /// When it arrived, in milliseconds after the response head (as the recording caller read it: a caller that
        /// reads slower than the server sends records its own pace).
        package var time: Double

        /// A chunk of `size` bytes that arrived `time` milliseconds after the head.
        package init(size: Int, time: Double) {
            self.size = size
            self.time = time
        }
    }

    /// The `response` object.
    package struct Response: Sendable, Hashable, Codable {
        /// The status code.
        package var status: Int
        /// The reason phrase (empty: HTTP/1.1 makes it optional and transports do not report it).
        package var statusText: String
        /// `HTTP/1.1`.
        package var httpVersion: String
        /// Always empty: cookies are in ``headers``.
        package var cookies: [NameValue]
        /// The header fields in order, redacted.
        package var headers: [NameValue]
        /// The body.
        package var content: Content
        /// The `Location` of a redirect, or empty.
        package var redirectURL: String
        /// `-1`: not known.
        package var headersSize: Int
        /// The body's size in bytes as received.
        package var bodySize: Int
    }

    /// The `content` object: a response body.
    package struct Content: Sendable, Hashable, Codable {
        /// The body's size in bytes.
        package var size: Int
        /// The `Content-Type` (empty when there was none).
        package var mimeType: String
        /// The body (UTF-8 text, or base64 when ``encoding`` is `base64`); `nil` when it was not recorded.
        package var text: String?
        /// `base64` for a body that is not UTF-8 text.
        package var encoding: String?
        /// Why the body is not in ``text``.
        package var comment: String?
        /// How a streamed body arrived, chunk by chunk (written as `_chunks`); `nil` for a body that was not
        /// streamed, or not recorded.
        package var chunks: [Chunk]?

        private enum CodingKeys: String, CodingKey {
            case size, mimeType, text, encoding, comment
            case chunks = "_chunks"
        }
    }

    /// The `cache` object (always empty).
    package struct Cache: Sendable, Hashable, Codable {}

    /// The `timings` object, in milliseconds. When the transport measured the exchange (its
    /// `HTTPResponse.timings`, as `NativeHTTPClient` does), the phases come from there; otherwise ``send`` is `0`,
    /// ``wait`` runs from the start until the response arrived and ``receive`` covers a streamed body.
    package struct Timings: Sendable, Hashable, Codable {
        /// Sending the request: the transport's measured send, or `0` when it does not report it apart from
        /// ``wait``.
        package var send: Double
        /// Waiting for the response: the transport's time to first byte, or from the start until the response
        /// arrived.
        package var wait: Double
        /// Reading the body after the head.
        package var receive: Double
        /// The DNS lookup, `-1` when there was none (a reused connection, an IP literal, a transport that cannot
        /// see it); absent when the transport measured nothing.
        package var dns: Double?
        /// Connecting, the TLS handshake included (as HAR 1.2 counts it), `-1` when there was none; absent when the
        /// transport measured nothing.
        package var connect: Double?
        /// The TLS handshake (also counted in ``connect``), `-1` when there was none; absent when the transport
        /// measured nothing.
        package var ssl: Double?
    }
}

extension HTTPArchive {
    /// Reads an archive from HAR text.
    ///
    /// - Throws: ``RecordingError/unreadableRecording(_:reason:)`` when the text is not a HAR 1.x document.
    package init(data: Data, from url: URL) throws(RecordingError) {
        do {
            self = try JSONDecoder().decode(HTTPArchive.self, from: data)
        } catch {
            throw .unreadableRecording(url, reason: "not a HAR document: \(error)")
        }
        guard log.version.hasPrefix("1.") else {
            throw .unreadableRecording(url, reason: "HAR version \(log.version) is not 1.x")
        }
    }

    /// The archive as HAR text: pretty-printed with sorted keys, so a committed recording diffs well.
    package func encoded() throws(RecordingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw .writeFailed(reason: "the archive could not be encoded: \(error)")
        }
    }
}

extension HTTPArchive.PostData {
    private enum CodingKeys: String, CodingKey {
        case mimeType, text, encoding, comment
    }

    /// Reads a `postData` object; an empty `text` beside a ``comment`` is a body that was not recorded.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mimeType = try container.decode(String.self, forKey: .mimeType)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        let text = try container.decodeIfPresent(String.self, forKey: .text)
        self.text = text == "" && comment != nil ? nil : text
    }

    /// Writes a `postData` object with the `text` HAR 1.2 requires: empty for a body that was not recorded
    /// (``comment`` says why).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mimeType, forKey: .mimeType)
        try container.encode(text ?? "", forKey: .text)
        try container.encodeIfPresent(encoding, forKey: .encoding)
        try container.encodeIfPresent(comment, forKey: .comment)
    }
}
