/// What the reader of an HTTP/2 connection and its responders share: the send windows (RFC 9113 §6.9), which
/// streams the client reset, and whether the connection is over. Guarded by the connection's ``ConditionLock``: a
/// responder waiting for credit or for its stream to end waits on it, and every change wakes it to look again.
struct HTTP2ServerState {
    /// What the client still lets us send on the connection as a whole.
    var connectionWindow = 65_535
    /// The client's SETTINGS_INITIAL_WINDOW_SIZE: a new stream's send window.
    var initialStreamWindow = 65_535
    /// The client's SETTINGS_MAX_FRAME_SIZE: the largest DATA payload we send.
    var maxFrameSize = 16_384
    /// The send window of each stream a responder is answering.
    var streamWindows: [UInt32: Int] = [:]
    /// Streams that ended early while we answered them: the client reset them (``resetByClient`` too), or we
    /// did. Each is forgotten when its responder ends.
    var resetStreams: Set<UInt32> = []
    /// The streams of ``resetStreams`` the client reset (RST_STREAM): a held response counts it as a hang-up.
    var resetByClient: Set<UInt32> = []
    /// The highest stream whose request the reader accepted: GOAWAY's last stream.
    var lastStream: UInt32 = 0
    /// The connection is over (the client closed it, a fault closed it, or the server is shutting down): every
    /// responder stops.
    var isClosed = false
    /// We closed or reset the connection (a fault), rather than the client closing it.
    var isClosedByServer = false
    /// A response asked to close the connection after it (GOAWAY sent): no new stream is accepted, and the
    /// connection closes once no responder is left.
    var isGoingAway = false
    /// Responders running.
    var activeResponders = 0
    /// Responders that ended and are not yet joined by the reader, by their index.
    var finishedResponders: [Int] = []

    /// Whether a responder of `stream` must stop: its stream or the connection ended.
    func hasEnded(_ stream: UInt32) -> Bool {
        isClosed || resetStreams.contains(stream)
    }

    /// Changes every open stream's window by the change of SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113 §6.9.2).
    mutating func setInitialStreamWindow(_ size: Int) {
        let delta = size - initialStreamWindow
        initialStreamWindow = size
        for stream in streamWindows.keys {
            streamWindows[stream, default: 0] += delta
        }
    }
}
