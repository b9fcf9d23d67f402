import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// The watch over an HTTP/2 server: SETTINGS acknowledged in time, keep-alive PINGs answered. The servers here are
/// ``SilentPeer``s that speak the first frames of HTTP/2 and then nothing: faults no real server produces on demand.
@Suite("NativeHTTPClient watches its HTTP/2 connections (SETTINGS timeout, keep-alive PING)", .timeLimit(.minutes(1)))
struct NativeHTTP2KeepAliveTests {
    /// An empty SETTINGS frame: the server's preface.
    private static let serverSettings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
    /// The acknowledgement of the client's SETTINGS.
    private static let settingsAck: [UInt8] = [0, 0, 0, 4, 1, 0, 0, 0, 0]

    private static func failure(
        _ peer: SilentPeer, _ change: (inout NativeHTTPClient.Configuration) -> Void
    ) async -> (APIClientError?, Duration) {
        let client = makeClient {
            $0.httpVersion = .http2PriorKnowledge
            // Without the watch, the call would end here, with a timeout: the tests fail in bounded time. Far above
            // the watch's limits (0.3 s), so that a loaded machine cannot turn the watch's answer into this one: the
            // whole suite starting at once stalled every test in the process, these two included, for 5 s in one CI
            // run and for 19 s in another.
            $0.limits.attemptTimeout = TestTimeScale.scaled(.seconds(40))
            change(&$0)
        }
        let request = HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:\(peer.port)", path: "/")
        let start = ContinuousClock.now
        let error = await BothamNetworkingNativeTests.failure(of: request, with: client)
        return (error, ContinuousClock.now - start)
    }

    private static func lostReason(_ error: APIClientError?) -> String? {
        guard case .networkError(let failure) = error, failure.kind == .connectionLost else { return nil }
        return (failure.underlying as? NativeTransportError)?.reason
    }

    @Test("A server that never acknowledges our SETTINGS is closed with SETTINGS_TIMEOUT and the call fails")
    func settingsNeverAcknowledged() async throws {
        let peer = try SilentPeer(greeting: Self.serverSettings) { $0.count >= 24 }
        defer { peer.stop() }
        let (error, elapsed) = await Self.failure(peer) { $0.http2.settingsTimeout = .milliseconds(300) }

        #expect(Self.lostReason(error)?.contains("SETTINGS") == true, "\(String(describing: error))")
        #expect(elapsed < TestTimeScale.scaled(.seconds(30)), "ended by the watch, well before the attempt limit")
    }

    @Test("A connection that stops answering is found dead by a keep-alive PING, and its call fails")
    func unansweredPingEndsTheConnection() async throws {
        let peer = try SilentPeer(greeting: Self.serverSettings + Self.settingsAck) { $0.count >= 24 }
        defer { peer.stop() }
        // No idle timeout: only the PING (or the attempt limit) can end this call.
        let (error, elapsed) = await Self.failure(peer) {
            $0.limits.idleTimeout = nil
            $0.http2.keepAlivePingInterval = .milliseconds(100)
            $0.http2.pingTimeout = .milliseconds(200)
        }

        #expect(Self.lostReason(error)?.contains("PING") == true, "\(String(describing: error))")
        #expect(elapsed < TestTimeScale.scaled(.seconds(30)), "ended by the watch, well before the attempt limit")
    }
}
