import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

#if os(Linux)
    /// Cancellation while a call is still connecting, the phases `NativeCancellationTests` leaves out: the Happy
    /// Eyeballs race to addresses that never answer, and the `CONNECT` or SOCKS5 handshake with a proxy that never
    /// answers. Each ends with `.cancelled` long before the connect timeout, and leaves no socket behind.
    @Suite("NativeHTTPClient cancellation while connecting", .timeLimit(.minutes(1)))
    struct NativeConnectCancellationTests {
        /// A client whose limits (50 s) never end a call before the test cancels it.
        private func patientClient(
            _ change: (inout NativeHTTPClient.Configuration) -> Void = { _ in }
        ) -> NativeHTTPClient {
            makeClient { configuration in
                configuration.limits = TransportLimits(
                    connectTimeout: .seconds(50), idleTimeout: .seconds(50), attemptTimeout: .seconds(50))
                change(&configuration)
            }
        }

        /// Cancels `call` and checks it ends with `.cancelled` well before the 50 s connect timeout; whether it did.
        private func cancelsPromptly(_ call: Task<APIClientError?, Never>) async -> Bool {
            let start = ContinuousClock.now
            call.cancel()
            let outcome = await awaitingCancellably(call)
            guard case .cancelled = outcome else {
                Issue.record("expected .cancelled, got \(String(describing: outcome))")
                return false
            }
            // Loose on purpose: the test resumes on the shared cooperative pool, which full-suite load delays by
            // seconds; anything well under the 50 s limits proves the cancellation, not a timeout, ended the call.
            #expect(
                seconds(since: start) < TestTimeScale.scaled(seconds: 10, since: start),
                "well before the 50 s connect timeout")
            return true
        }

        @Test(
            "During the Happy Eyeballs race to two blackholed addresses: .cancelled at once, and both attempts' sockets are closed"
        )
        func duringHappyEyeballs() async throws {
            let first = try await LoopbackBlackhole.make(.ipv4)
            let second = try await LoopbackBlackhole.make(.ipv4)
            let ports = [first.address.port, second.address.port]
            let resolver = TableResolver(["blackholed.test": [first.address, second.address]])
            let client = patientClient {
                $0.nameResolver = resolver
                $0.connectionAttemptDelay = .milliseconds(20)
            }
            let request = HTTPRequest(method: .get, baseEndpoint: "http://blackholed.test:\(first.address.port)")
            func sockets() -> Int {
                ports.map(NativeHTTPClientLifecycleTests.descriptorsConnected(toPort:)).reduce(0, +)
            }

            // Each blackhole's own filler connection counts too: the client's are the ones above it.
            let baseline = sockets()
            let call = Task { await failure(of: request, with: client) }
            // Both attempts are in flight: the second started after the attempt delay, the first still waits.
            let racing = await eventually { sockets() == baseline + 2 }
            try #require(racing, "expected two connect attempts in flight, found \(sockets() - baseline) sockets")

            guard await cancelsPromptly(call) else { return }
            #expect(
                await eventually { sockets() == baseline },
                "\(sockets() - baseline) sockets left open")
            withExtendedLifetime((first, second)) {}
        }

        @Test(
            "During the handshake with a proxy that never answers (CONNECT, SOCKS5): .cancelled, and the connection is closed",
            arguments: [ProxyServer.Kind.http, .socks5h]
        )
        func duringProxyHandshake(kind: ProxyServer.Kind) async throws {
            let peer = try SilentPeer { !$0.isEmpty }  // the CONNECT head, or the SOCKS5 greeting, has come
            defer { peer.stop() }
            let proxy = ProxyServer(kind: kind, host: "127.0.0.1", port: peer.port)
            let client = patientClient { $0.proxy = .all(proxy) }
            var reached = peer.reached.makeAsyncIterator()
            // Port 9 is never reached: the proxy is silent.
            let request = HTTPRequest(method: .get, baseEndpoint: "https://127.0.0.1:9")

            let call = Task { await failure(of: request, with: client) }
            await reached.next()
            guard await cancelsPromptly(call) else { return }
            #expect(await peer.clientCloses())
            #expect(
                await eventually {
                    NativeHTTPClientLifecycleTests.descriptorsConnected(toPort: peer.port) == 0
                })
        }
    }
#endif
