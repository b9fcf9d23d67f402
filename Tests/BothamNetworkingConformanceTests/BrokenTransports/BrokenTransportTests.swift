import BothamNetworking
import BothamNetworkingConformance
import BothamTestSupport
import Testing

extension ConformanceTests {
    @Suite("Deliberately broken transports fail exactly the matching checks", .timeLimit(.minutes(1)))
    struct BrokenTransportTests {
        /// Why the two timing tests below run only unscaled: a broken transport is told apart from a good one by when
        /// it answers (a head that waits for its body, a response after a timeout that should have ended it). A time
        /// scale widens every bound a check allows but not the server's delays, so under ThreadSanitizer's scale a
        /// non-streaming transport delivers its whole body inside the widened bound and looks like a streaming one.
        /// `.ci/run` runs them in its plain `swift test` step (scale 1); the TSan step (scale 10) skips them.
        static let unscaled = ConditionTrait.enabled(
            if: TestTimeScale.factor == 1,
            "times a broken transport against the server's real delays; runs in the unscaled swift test step")

        @Test(
            "a broken transport fails the check if and only if the check is about what it breaks",
            Self.unscaled, arguments: BrokenTransport.allCases, TransportConformance.checks)
        func failsExactlyItsChecks(transport: BrokenTransport, check: ConformanceCheck) async {
            let result = await transport.conformance.run(check)

            if transport.failures.contains(check) {
                #expect(result.outcome.isFailure, "\(result)")
            } else {
                #expect(result.outcome == .passed, "\(result)")
            }
        }

        @Test("every broken transport's expected failures are checks of the suite")
        func failuresAreChecks() {
            for transport in BrokenTransport.allCases {
                #expect(transport.failures.isSubset(of: Set(TransportConformance.checks)))
                #expect(!transport.failures.isEmpty)
            }
        }

        @Test("every check of the suite is failed by at least one broken transport: none of them cannot fail")
        func everyCheckCanFail() {
            let proven = BrokenTransport.allCases.reduce(into: Set<ConformanceCheck>()) { $0.formUnion($1.failures) }
            let unproven = TransportConformance.checks.filter { !proven.contains($0) }
            #expect(unproven.isEmpty, "no broken transport fails \(unproven.map(\.id))")
        }

        @Test(
            "a transport that ignores timeouts fails each timeout check within its bound, not after a hang",
            Self.unscaled)
        func ignoresTimeoutsPromptly() async {
            let report = await BrokenTransport.ignoresTimeouts.conformance.run(
                only: TransportConformance.checks(in: .timeouts))

            #expect(
                Set(report.failed.map(\.check))
                    == BrokenTransport.ignoresTimeouts.failures.subtracting([.streamIdleTimeout]))
            for result in report.failed {
                #expect(
                    result.duration < TestTimeScale.scaled(.seconds(4)), "\(result.check) waited \(result.duration)")
                guard case .failed(let reason) = result.outcome else { continue }
                #expect(reason.contains("had not ended after"), "\(reason)")
            }
        }

        @Test("the failure reasons say what the transport did")
        func reasons() async {
            let leak = await BrokenTransport.forwardsCredentials.conformance.run(.redirectCrossOriginStripsCredentials)
            #expect(
                leak.outcome
                    == .failed(reason: "302 to another origin still sent Authorization, Proxy-Authorization, Cookie"))

            let kind = await BrokenTransport.mapsLostConnectionWrongly.conformance.run(.faultReset)
            #expect(
                kind.outcome
                    == .failed(reason: "ended with networkError(badServerResponse), not networkError(connectionLost)"))

            let folded = await BrokenTransport.foldsRepeatedFields.conformance.run(.repeatedResponseFields)
            guard case .failed(let reason) = folded.outcome else {
                Issue.record("\(folded)")
                return
            }
            #expect(reason.hasPrefix("three Set-Cookie fields came back as"), "\(reason)")
        }

        @Test("skipped checks are reported not applicable with their reason, and nothing of them runs")
        func skipping() async {
            let reason = "this transport does not stream"
            let skipped = Dictionary(
                uniqueKeysWithValues: TransportConformance.checks(in: .streaming).map { ($0.id, reason) })
            let conformance = TransportConformance(skipping: skipped) { DoesNotStream($0) }

            let report = await conformance.run(only: TransportConformance.checks(in: .streaming))

            #expect(report.conforms)
            #expect(report.notApplicable.count == 6)
            #expect(report.results.allSatisfy { $0.outcome == .notApplicable(reason: reason) && $0.duration == .zero })
            #expect(report.description.hasPrefix("0 passed, 0 failed, 6 not applicable of 6 checks"))
        }
    }
}
