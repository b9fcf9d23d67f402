import BothamHTTP2Wire

/// One receive window of ours (a stream's or the connection's): what the server may still send, and what the
/// consumer has read since we last said so. We grant more with WINDOW_UPDATE once half the window is read, so a
/// reader that stops holds the server back (back-pressure) and a reading one never stalls it.
struct HTTP2ReceiveWindow: Hashable, Sendable {
    /// The window every stream and the connection start with (RFC 9113 §6.9.2).
    static let initialSize = 65_535

    /// The window we keep granting.
    let size: Int
    /// Octets the server may still send.
    private(set) var available: Int
    /// Octets read since our last WINDOW_UPDATE.
    private var consumed = 0

    /// A window of `size`, all of it granted (the connection's is announced beyond the initial 65,535 by
    /// ``HTTP2ClientConnection/start()``).
    init(size: Int) {
        self.size = size
        available = size
    }

    /// Takes `count` octets the server sent; `false` when they exceed the window (a FLOW_CONTROL_ERROR).
    mutating func receive(_ count: Int) -> Bool {
        guard count <= available else { return false }
        available -= count
        return true
    }

    /// Counts `count` octets read; returns the increment to send in a WINDOW_UPDATE, or `nil` while less than half
    /// the window is waiting to be granted again.
    mutating func consume(_ count: Int) -> UInt32? {
        consumed += max(0, count)
        guard consumed * 2 >= size else { return nil }
        let increment = min(consumed, size - available)
        consumed = 0
        guard increment > 0 else { return nil }
        available += increment
        return UInt32(increment)
    }
}
