import BothamNetworking
import BothamNetworkingConformance
import Testing

extension ConformanceTests {
    @Suite("NativeHTTPClient passes the conformance checks over a Unix domain socket", .timeLimit(.minutes(1)))
    struct UnixSocketConformanceTests {
        /// The checks that cannot apply over a socket, with the reason.
        static let notOverASocket: [String: String] = [
            ConformanceCheck.redirectCrossOriginStripsCredentials.id:
                "a redirect to another socket is never followed (only redirects within the socket origin are)",
            ConformanceCheck.redirectStrippedStaysStripped.id:
                "a redirect to another socket is never followed (only redirects within the socket origin are)",
            ConformanceCheck.faultReset.id:
                "a Unix socket has no reset (RST): the server's abortive close reads as a close, which the "
                + "closedBeforeResponse check covers",
        ]

        @Test(
            "the native transport (HTTP/1.1 and HTTP/2 with prior knowledge) passes the check over a socket file",
            arguments: [OwnTransport.native, .nativeHTTP2], TransportConformance.checks)
        func passes(transport: OwnTransport, check: ConformanceCheck) async {
            var conformance = TransportConformance(
                timeScale: conformanceTimeScale, skipping: Self.notOverASocket
            ) { transport.make($0) }
            conformance.overUnixSocket = true

            let result = await conformance.run(check)

            if let reason = Self.notOverASocket[check.id] {
                #expect(result.outcome == .notApplicable(reason: reason))
            } else {
                #expect(result.outcome == .passed, "\(result)")
            }
        }
    }
}
