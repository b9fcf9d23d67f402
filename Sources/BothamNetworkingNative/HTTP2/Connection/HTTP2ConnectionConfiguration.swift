import BothamHTTP2Wire

/// What our side of an HTTP/2 connection announces and enforces: the windows we grant the server, the limits on
/// what it sends, and how we compress our own fields.
package struct HTTP2ConnectionConfiguration: Hashable, Sendable {
    /// The receive window of each stream (our SETTINGS_INITIAL_WINDOW_SIZE): how many response body octets the
    /// server may send on a stream before we say it may send more, which we say as the consumer reads. 1 MiB by
    /// default: a loopback or LAN round trip never waits on it, and an unread stream holds at most that much.
    package var streamWindow: Int
    /// The receive window of the whole connection, raised from the protocol's 65,535 by a WINDOW_UPDATE right after
    /// the preface. 4 MiB by default: four streams at full speed.
    package var connectionWindow: Int
    /// The largest field section (HPACK's accounting: name + value + 32 per field) a response may send
    /// (SETTINGS_MAX_HEADER_LIST_SIZE, enforced by the HPACK decoder against compression bombs).
    package var maxHeaderListSize: Int
    /// The HPACK dynamic table the server's encoder may use (SETTINGS_HEADER_TABLE_SIZE).
    package var headerTableSize: Int
    /// How many streams we open before the server's SETTINGS say how many it allows (RFC 9113 §5.1.2 leaves it
    /// unlimited until then; a server that allows fewer refuses the rest, which we would retry).
    package var assumedMaxConcurrentStreams: Int
    /// Field names sent as never-indexed literals besides `authorization`, `cookie` and `proxy-authorization`
    /// (the names a `Redactor` hides), lowercase.
    package var sensitiveFieldNames: Set<String>

    /// A configuration with the defaults documented on each property.
    package init(
        streamWindow: Int = 1 << 20, connectionWindow: Int = 4 << 20, maxHeaderListSize: Int = 64 * 1024,
        headerTableSize: Int = 4096, assumedMaxConcurrentStreams: Int = 100, sensitiveFieldNames: Set<String> = []
    ) {
        self.streamWindow = streamWindow
        self.connectionWindow = connectionWindow
        self.maxHeaderListSize = maxHeaderListSize
        self.headerTableSize = headerTableSize
        self.assumedMaxConcurrentStreams = assumedMaxConcurrentStreams
        self.sensitiveFieldNames = sensitiveFieldNames
    }

    /// ``streamWindow`` within what SETTINGS_INITIAL_WINDOW_SIZE can say (1…2^31 − 1).
    var effectiveStreamWindow: Int { min(max(1, streamWindow), Int(HTTP2Setting.maximumWindowSize)) }

    /// ``connectionWindow`` within 65,535…2^31 − 1 (never below the protocol's initial window).
    var effectiveConnectionWindow: Int {
        min(max(HTTP2ReceiveWindow.initialSize, connectionWindow), Int(HTTP2Setting.maximumWindowSize))
    }

    /// The SETTINGS our preface announces: push off, our stream window, our header limits.
    var localSettings: HTTP2Settings {
        var settings = HTTP2Settings()
        settings.enablePush = false
        settings.initialWindowSize = effectiveStreamWindow
        settings.maxHeaderListSize = maxHeaderListSize
        settings.headerTableSize = headerTableSize
        return settings
    }
}
