/// The connection preface (RFC 9113 §3.4).
package enum HTTP2ConnectionPreface {
    /// The 24 octets a client sends first, `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, before its SETTINGS frame
    /// (``HTTP2FrameEncoder/clientPreface(settings:)`` writes both). A server's preface is its first SETTINGS
    /// frame.
    package static let clientMagic: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
}
