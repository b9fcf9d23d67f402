import BothamNetworking
import Foundation

/// An HTTP/1.1 connection carries one exchange at a time: the head and body go out as bytes, the response comes in
/// as bytes for the exchange's parser.
extension Connection: ExchangeCarrier {
    var protocolVersion: HTTPResponse.ProtocolVersion { .http1_1 }

    func attach(_ delegate: any ExchangeCarrierDelegate) {
        self.delegate = delegate
    }

    func sendHead(_ head: RequestHead, endsRequest: Bool) -> Result<Int, ConnectionFailure> {
        write(head.http1)
        return .success(head.http1.count)
    }

    func sendBody(_ bytes: Data, chunked: Bool) {
        write(chunked ? HTTPRequestSerializer.chunk(bytes) : bytes)
    }

    func endBody(chunked: Bool) {
        if chunked { write(HTTPRequestSerializer.chunk(Data())) }
    }

    func release(to pool: any ExchangeCarrierPool) {
        delegate = nil
        pool.release(self)
    }

    func discard(in pool: any ExchangeCarrierPool) {
        delegate = nil
        pool.discard(self)
    }

    func handOver(from pool: any ExchangeCarrierPool) {
        pool.detach(self)
    }
}
