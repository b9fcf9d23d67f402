import BothamNetworking
import BothamTestSupport
import Foundation

/// A transport that answers each send with the next scripted result, its responses carrying the scripted
/// ``HTTPResponse/Timings``, as a measuring transport would.
final class TimedTransport: HTTPClient {
    private let script: Lock<[Result<(statusCode: Int, timings: HTTPResponse.Timings?), APIClientError>]>

    init(_ script: [Result<(statusCode: Int, timings: HTTPResponse.Timings?), APIClientError>]) {
        self.script = Lock(script)
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let next = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let next else { throw .networkError(APIClientError.NetworkFailure(kind: .other)) }
        let (statusCode, timings) = try next.get()
        return HTTPResponse(statusCode: statusCode, body: Data("ok".utf8), request: request, timings: timings)
    }
}

extension HTTPResponse.Timings {
    /// Timings with every phase, each `step` milliseconds long and one after the other.
    static func sample(step milliseconds: Int, reused: Bool = false) -> HTTPResponse.Timings {
        func phase(_ index: Int) -> Phase {
            Phase(start: .milliseconds(index * milliseconds), end: .milliseconds((index + 1) * milliseconds))
        }
        return HTTPResponse.Timings(
            dnsLookup: phase(0), connect: phase(1), tlsHandshake: phase(2), requestSent: phase(3), waiting: phase(4),
            bodyReceived: phase(5), reusedConnection: reused)
    }
}
