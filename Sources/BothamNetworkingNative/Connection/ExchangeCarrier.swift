import BothamNetworking
import Foundation

/// What one exchange sends its request over and hears its response from: an HTTP/1.1 ``Connection`` of its own
/// for the time of the exchange, or one stream of a shared HTTP/2 connection. Loop thread only.
protocol ExchangeCarrier: AnyObject {
    /// Whether the carrier can take the request now (otherwise ``ExchangeCarrierDelegate/carrierIsReady()`` follows).
    var isReady: Bool { get }
    /// Request octets handed to the carrier and not yet taken by the socket (or, on HTTP/2, by the flow-control
    /// windows): what a body producer waits on.
    var queuedBytes: Int { get }
    /// When octets of this exchange last moved (monotonic nanoseconds), for the idle timeout.
    var lastProgress: UInt64 { get }
    /// When each step of opening the connection underneath happened.
    var opening: ConnectionOpening { get }
    /// Whether reading is paused for a consumer that has not caught up.
    var isReadingPaused: Bool { get }
    /// The version of HTTP the carrier speaks.
    var protocolVersion: HTTPResponse.ProtocolVersion { get }

    /// Makes `delegate` the one who hears the response.
    func attach(_ delegate: any ExchangeCarrierDelegate)
    /// Sends the head, ending the request with it when `endsRequest` (a request without body). Returns the octets
    /// of the head counted in ``queuedBytes``, or why the request cannot be sent (nothing was).
    func sendHead(_ head: RequestHead, endsRequest: Bool) -> Result<Int, ConnectionFailure>
    /// Sends body octets (framed as a chunk for HTTP/1.1 when `chunked`).
    func sendBody(_ bytes: Data, chunked: Bool)
    /// Ends the body (the last chunk for HTTP/1.1 when `chunked`; END_STREAM for HTTP/2).
    func endBody(chunked: Bool)
    /// Stops reading until ``resumeReading()``.
    func pauseReading()
    /// Reads again.
    func resumeReading()
    /// The response is complete and the carrier may serve another exchange.
    func release(to pool: any ExchangeCarrierPool)
    /// The exchange is over before its response was (or the carrier cannot be reused): close or reset it.
    func discard(in pool: any ExchangeCarrierPool)
    /// The response switched protocols: the carrier now belongs to whoever it is attached to (a WebSocket), no
    /// longer to the pool, which stops counting it; ``discard(in:)`` closes it when that owner is done.
    func handOver(from pool: any ExchangeCarrierPool)
}

extension ExchangeCarrier {
    /// A carrier the pool does not count apart (an HTTP/2 stream: its session counts its streams) stays as it is.
    func handOver(from pool: any ExchangeCarrierPool) {}
}

/// Who hears what an ``ExchangeCarrier`` received: the exchange. An HTTP/1.1 ``Connection`` tells it as its
/// ``ConnectionDelegate``; an HTTP/2 stream through the calls below. Loop thread only.
protocol ExchangeCarrierDelegate: ConnectionDelegate {
    /// The carrier finished connecting and can take the request.
    func carrierIsReady()
    /// Response octets (HTTP/1.1 wire bytes, or an HTTP/2 stream's body); valid only during the call.
    func carrierDidRead(_ bytes: UnsafeRawBufferPointer)
    /// A response head that arrived already parsed (HTTP/2).
    func carrierDidReceiveHead(statusCode: Int, headers: HTTPHeaders)
    /// The carrier ended: ``ConnectionFailure/endOfStream`` at the end of a response, anything else a failure.
    func carrierDidFail(_ failure: ConnectionFailure)
    /// Everything queued has been taken: room for more of a streamed or file body.
    func carrierDidDrain()
}

/// Where carriers go back when their exchange is over: the connection pool.
protocol ExchangeCarrierPool: AnyObject {
    /// Takes back an HTTP/1.1 connection that may be reused.
    func release(_ connection: Connection)
    /// Closes an HTTP/1.1 connection that cannot be reused.
    func discard(_ connection: Connection)
    /// Stops counting an HTTP/1.1 connection that switched protocols, without closing it.
    func detach(_ connection: Connection)
}
