import BothamNetworking
import BothamNetworkingConformance
import Testing

extension ConformanceTests {
    @Suite("Both transports pass every conformance check", .timeLimit(.minutes(1)))
    struct OwnTransportsConformanceTests {
        @Test(
            "the transport passes the check (or skips it for its documented reason)",
            arguments: OwnTransport.allCases, TransportConformance.checks)
        func passes(transport: OwnTransport, check: ConformanceCheck) async {
            let result = await transport.conformance.run(check)

            if let reason = transport.skipped[check.id] {
                #expect(result.outcome == .notApplicable(reason: reason))
            } else {
                #expect(result.outcome == .passed, "\(result)")
            }
        }

        #if canImport(FoundationNetworking)
            @Test("URLSessionHTTPClient on Linux, not skipping them, fails every WebSocket check: a refusal is no pass")
            func urlSessionWebSocketsOnLinux() async {
                let conformance = TransportConformance { OwnTransport.urlSession.make($0) }

                let report = await conformance.run(only: TransportConformance.checks(in: .webSockets))

                #expect(report.results.count == 10)
                #expect(report.failed.count == report.results.count, "\(report)")
            }
        #endif

        @Test("URLSessionHTTPClient, not skipping it, fails the field order check it is documented to fail")
        func urlSessionFieldOrder() async {
            let conformance = TransportConformance { OwnTransport.urlSession.make($0) }

            let result = await conformance.run(.responseFieldOrder)

            guard case .failed(let reason) = result.outcome else {
                Issue.record("URLSession kept the field order: \(result)")
                return
            }
            #expect(reason.contains("X-Zeta, X-Alpha, X-Mid"))
        }

        @Test("every check has a unique id, in its area, and the areas come in order")
        func checkList() {
            let checks = TransportConformance.checks
            #expect(Set(checks.map(\.id)).count == checks.count)
            for check in checks { #expect(check.id.hasPrefix("\(check.area.rawValue).")) }
            let areas = checks.map(\.area)
            let order = ConformanceArea.allCases
            #expect(
                zip(areas, areas.dropFirst()).allSatisfy { pair in
                    (order.firstIndex(of: pair.0) ?? 0) <= (order.firstIndex(of: pair.1) ?? 0)
                })
            #expect(Set(areas) == Set(order))
            #expect(TransportConformance.checks(in: .streaming).count == 6)
            #expect(TransportConformance.checks(in: .webSockets).count == 10)
            #expect(checks.count == 60, "README, CHANGELOG and the DocC articles say 60 checks")
        }
    }
}
