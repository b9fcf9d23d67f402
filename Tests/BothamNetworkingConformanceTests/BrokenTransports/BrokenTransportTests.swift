import BothamNetworking
import BothamNetworkingConformance
import BothamTestSupport
import Testing

extension ConformanceTests {
    @Suite("Deliberately broken transports fail exactly the matching checks", .timeLimit(.minutes(1)))
    struct BrokenTransportTests {
        @Test("a transport that forwards credentials across origins fails the two credential checks, and only them")
        func forwardsCredentials() async {
            let report = await brokenConformance { ForwardsCredentialsAcrossOrigins($0) }.run()

            #expect(
                failedIDs(report) == ["redirects.crossOriginStripsCredentials", "redirects.strippedStaysStripped"],
                "\(report)")
            #expect(
                report[.redirectCrossOriginStripsCredentials]?.outcome
                    == .failed(reason: "302 to another origin still sent Authorization, Proxy-Authorization, Cookie"))
        }

        @Test("a transport that ignores timeouts fails the four timeout checks promptly, and only them")
        func ignoresTimeouts() async {
            let report = await brokenConformance { IgnoresTimeouts($0) }.run()

            #expect(
                failedIDs(report) == [
                    "timeouts.attemptTimeout", "timeouts.idleTimeout", "timeouts.maxAttemptTimeout",
                    "timeouts.requestTimeout",
                ], "\(report)")
            for result in report.failed {
                #expect(
                    result.duration < .seconds(4) * TestTimeScale.factor, "\(result.check) waited \(result.duration)")
            }
        }

        @Test("a transport that folds repeated fields fails the repeated field check, and only it")
        func foldsFields() async {
            let report = await brokenConformance { FoldsRepeatedFields($0) }.run()

            #expect(failedIDs(report) == ["headers.repeatedResponseFields"], "\(report)")
        }

        @Test("a transport that maps a lost connection to badServerResponse fails the five lost-connection faults")
        func wrongKind() async {
            let report = await brokenConformance { MapsLostConnectionWrongly($0) }.run()

            #expect(
                failedIDs(report) == [
                    "faults.dropAfterHead", "faults.dropMidBody", "faults.reset", "faults.shortBody",
                    "faults.truncatedChunkedBody",
                ], "\(report)")
            #expect(
                report[.faultReset]?.outcome
                    == .failed(reason: "ended with networkError(badServerResponse), not networkError(connectionLost)"))
        }

        @Test("a transport that does not stream fails the head-before-body and mid-stream drop checks")
        func doesNotStream() async {
            let report = await brokenConformance { DoesNotStream($0) }.run(only: [
                .streamHeadBeforeBody, .streamDropMidStream, .streamLargeBody,
            ])

            #expect(failedIDs(report) == ["streaming.dropMidStream", "streaming.headBeforeBody"], "\(report)")
        }

        @Test("skipped checks are reported not applicable with their reason, and nothing of them runs")
        func skipping() async {
            let reason = "this transport does not stream"
            let skipped = Dictionary(
                uniqueKeysWithValues: TransportConformance.checks(in: .streaming).map { ($0, reason) })
            let conformance = TransportConformance(skipping: skipped) { DoesNotStream($0) }

            let report = await conformance.run(only: TransportConformance.checks(in: .streaming))

            #expect(report.conforms)
            #expect(report.notApplicable.count == 5)
            #expect(report.results.allSatisfy { $0.outcome == .notApplicable(reason: reason) && $0.duration == .zero })
            #expect(report.description.hasPrefix("0 passed, 0 failed, 5 not applicable of 5 checks"))
        }
    }
}
