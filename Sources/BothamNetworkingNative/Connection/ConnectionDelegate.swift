import BothamNetworking

/// Why a connection ended.
enum ConnectionFailure: Error {
    /// The server closed the connection (TCP FIN or TLS `close_notify`).
    case endOfStream
    /// The host name did not resolve.
    case resolve(NativeTransportError)
    /// No address accepted the connection.
    case connect(NativeTransportError)
    /// A read or write failed (reset, broken pipe).
    case socket(NativeTransportError)
    /// TLS failed (handshake, verification, pins, protocol).
    case tls(TLSError)
    /// The proxy refused the tunnel or wants credentials.
    case proxy(NativeProxyError)
    /// An HTTP/2 server did not process the request (REFUSED_STREAM, or above the last stream of its GOAWAY): it
    /// may be sent again on another connection whatever its method (RFC 9113 §8.7).
    case refused(NativeTransportError)
    /// An HTTP/2 server reset the stream (RST_STREAM with another code than REFUSED_STREAM): the request may have
    /// been processed, and the connection is fine (not a stale connection).
    case streamReset(NativeTransportError)
    /// An HTTP/2 response broke the protocol (a malformed field section, a body longer or shorter than its
    /// `content-length`) or went past a size limit (the error's code is then `responseTooLarge`): its stream was
    /// reset.
    case malformed(NativeTransportError)
    /// The request cannot be sent as it is (its fields exceed what the server accepts): nothing was sent.
    case rejectedRequest(String)
}

/// The current user of a ``Connection``: an exchange while a request is in flight, the pool while it is idle.
/// Called on the loop thread.
protocol ConnectionDelegate: AnyObject {
    /// The connection finished connecting (and its TLS handshake) and can carry a request.
    func connectionIsReady(_ connection: Connection)
    /// Bytes (plaintext) arrived; they are only valid during the call.
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
    /// The connection failed or was closed by the server; it is already closed.
    func connection(_ connection: Connection, didFail failure: ConnectionFailure)
    /// Everything written so far has gone to the socket: room for more of a streamed body.
    func connectionDidDrain(_ connection: Connection)
    /// Memory the next read of a cleartext connection may fill directly, skipping its read buffer (a large body read
    /// in place), leaving at least `reserve` bytes for a read through the buffer. `nil`: read into the buffer and
    /// call ``connection(_:didRead:)``.
    func directReadTarget(reserve: Int) -> UnsafeMutableRawBufferPointer?
    /// `count` bytes were read into ``directReadTarget(reserve:)``'s memory.
    func connection(_ connection: Connection, didReadDirectly count: Int)
}

extension ConnectionDelegate {
    /// Nothing to stream by default.
    func connectionDidDrain(_ connection: Connection) {}

    /// Every read goes through the read buffer by default.
    func directReadTarget(reserve: Int) -> UnsafeMutableRawBufferPointer? { nil }

    /// Never called without a ``directReadTarget(reserve:)``, which a delegate that offers one implements with it.
    func connection(_ connection: Connection, didReadDirectly count: Int) {
        preconditionFailure("bytes were read into a target this delegate never offered")
    }
}
