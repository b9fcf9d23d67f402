import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("ChaosInterceptor.Schedule: seeded, scripted, scoped and reproducible", .timeLimit(.minutes(1)))
struct ChaosScheduleTests {
    static let odds: KeyValuePairs<ChaosInterceptor.Fault, Double> = [
        .fail(.connectionLost): 0.2, .status(503): 0.1, .delay(.milliseconds(5)): 0.1, .truncateBody: 0.1,
    ]

    @Test("the same seed gives the same schedule; another seed another one")
    func sameSeed() {
        let first = ChaosInterceptor.Schedule.random(seed: 42, Self.odds).faults(count: 500)
        let again = ChaosInterceptor.Schedule.random(seed: 42, Self.odds).faults(count: 500)
        let other = ChaosInterceptor.Schedule.random(seed: 43, Self.odds).faults(count: 500)

        #expect(first == again)
        #expect(first != other)
        #expect(first.contains(nil) && first.contains(.truncateBody))
    }

    @Test("a seed names the same schedule on every run and platform: seed 42's first entries are pinned")
    func pinned() {
        // SplitMix64(42) draws 0.7416, 0.1599, 0.2786, 0.3442, 0.0380, 0.8682, …; the cumulative odds are
        // 0.2 (fail), 0.3 (503), 0.4 (delay), 0.5 (truncate).
        let expected: [ChaosInterceptor.Fault?] = [
            nil, .fail(.connectionLost), .status(503), .delay(.milliseconds(5)), .fail(.connectionLost), nil,
        ]
        #expect(ChaosInterceptor.Schedule.random(seed: 42, Self.odds).faults(count: 6) == expected)
        var generator = SplitMix64(seed: 42)
        let draws = (0..<6).map { _ in generator.nextUnitInterval() }
        #expect(draws.map { ($0 * 10_000).rounded() / 10_000 } == [0.7416, 0.1599, 0.2786, 0.3442, 0.038, 0.8682])
    }

    @Test("each matched request through BothamAPIClient gets the schedule's entry, in order")
    func interceptorFollowsSchedule() async {
        let schedule = ChaosInterceptor.Schedule.random(seed: 7, Self.odds)
        let log = FaultLog()
        let clock = VirtualClock(sleeping: .advancesClock)
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let apiClient = ChaosTest.client(
            ChaosInterceptor(schedule, onFault: log.onFault), stubClient, configuration: .init(clock: clock))

        let paths = (0..<200).map { "/r/\($0)" }
        var outcomes: [ChaosInterceptor.Fault?] = []
        for path in paths {
            let result = await apiClient.GET(path)
            switch result {
            case .success: outcomes.append(nil)
            case .failure(.httpResponseError(let response)): outcomes.append(.status(response.statusCode))
            case .failure(let error):
                outcomes.append(ChaosTest.injectedFault(ChaosTest.networkFailure(.failure(error))))
            }
        }

        let planned = schedule.faults(count: 200)
        #expect(log.faults(of: paths) == planned)
        // What the caller saw: a delay succeeds, the other faults fail as injected.
        #expect(outcomes == planned.map { $0.flatMap { if case .delay = $0 { return nil } else { return $0 } } })
        #expect(clock.sleeps.count == planned.filter { $0 == .delay(.milliseconds(5)) }.count)
    }

    @Test("the probabilities are honoured over many draws")
    func probabilities() {
        let faults = ChaosInterceptor.Schedule.random(seed: 2026, [.fail(.connectionLost): 0.25, .status(503): 0.1])
            .faults(count: 10_000)
        let failures = faults.filter { $0 == .fail(.connectionLost) }.count
        let statuses = faults.filter { $0 == .status(503) }.count
        #expect((2_200...2_800).contains(failures), "\(failures)")
        #expect((800...1_200).contains(statuses), "\(statuses)")
        #expect(faults.filter { $0 == nil }.count == 10_000 - failures - statuses)
    }

    @Test("probabilities are clamped; past a cumulative 1 later faults are never drawn")
    func clamped() {
        let faults = ChaosInterceptor.Schedule.random(seed: 1, [.status(500): 1.5, .status(502): 0.5]).faults(
            count: 100)
        #expect(faults.allSatisfy { $0 == .status(500) })
        #expect(ChaosInterceptor.Schedule.random(seed: 1, [.status(500): -1, .status(502): .nan]).isOff)
        #expect(
            ChaosInterceptor.Schedule.random(seed: 1, [.status(500): -1, .status(502): .nan]).faults(count: 50)
                .allSatisfy {
                    $0 == nil
                })
    }

    @Test("a script runs once and then injects nothing, or repeats when asked")
    func script() {
        let script: [ChaosInterceptor.Fault?] = [.fail(.connectionLost), nil, .truncateBody]
        #expect(ChaosInterceptor.Schedule.script(script).faults(count: 5) == script + [nil, nil])
        #expect(
            ChaosInterceptor.Schedule.script(script, repeating: true).faults(count: 7) == script + script + [script[0]])
        #expect(ChaosInterceptor.Schedule.script([]).faults(count: 3) == [nil, nil, nil])
        #expect(ChaosInterceptor.Schedule.script([nil, nil]).isOff)
        #expect(!ChaosInterceptor.Schedule.script(script).isOff)
    }

    @Test("off by default: an interceptor without a schedule passes every request on untouched")
    func offByDefault() async throws {
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let log = FaultLog()
        let chaos = ChaosInterceptor(onFault: log.onFault)
        let apiClient = ChaosTest.client(chaos, stubClient)

        for index in 0..<50 {
            #expect(try await apiClient.GET("/r/\(index)").get().body == Data("ok".utf8))
        }
        #expect(chaos.schedule.isOff)
        #expect(log.entries.count == 0)
        #expect(stubClient.receivedRequests.count == 50)
    }

    @Test("requests the matcher does not accept pass untouched and draw nothing")
    func scope() async {
        let schedule = ChaosInterceptor.Schedule.random(seed: 99, Self.odds)
        let log = FaultLog()
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let chaos = ChaosInterceptor(
            schedule, matching: RequestMatcher.path("/feed").matches, onFault: log.onFault)
        let apiClient = ChaosTest.client(
            chaos, stubClient, configuration: .init(clock: VirtualClock(sleeping: .advancesClock)))

        var feedPaths: [String] = []
        for index in 0..<60 {
            for other in 0..<3 {
                #expect(await (try? apiClient.GET("/profile", parameters: ["n": "\(index)-\(other)"]).get()) != nil)
            }
            let path = "/feed?n=\(index)"
            feedPaths.append(path)
            _ = await apiClient.GET(path)
        }

        #expect(log.entries.values.allSatisfy { $0.path.hasPrefix("/feed") })
        #expect(log.faults(of: feedPaths) == schedule.faults(count: 60))
    }

    @Test("replacing the schedule starts it from its first entry")
    func replacing() async {
        let log = FaultLog()
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let chaos = ChaosInterceptor(.script([.status(500)]), onFault: log.onFault)
        let apiClient = ChaosTest.client(chaos, stubClient)

        #expect(ChaosTest.statusCode(await apiClient.GET("/a")) == 500)
        #expect(ChaosTest.statusCode(await apiClient.GET("/b")) == 200)
        chaos.schedule = .script([.status(500)])
        #expect(ChaosTest.statusCode(await apiClient.GET("/c")) == 500)
        chaos.schedule = .off
        #expect(ChaosTest.statusCode(await apiClient.GET("/d")) == 200)
        #expect(log.entries.values.map(\.path) == ["/a", "/c"])
    }

    @Test("concurrent calls share one schedule: together they get exactly its first entries")
    func concurrent() async {
        let schedule = ChaosInterceptor.Schedule.random(seed: 5, [.status(503): 0.3, .fail(.cannotConnect): 0.2])
        let log = FaultLog()
        let stubClient = StubHTTPClient()
        stubClient.stub(with: .text("ok"))
        let apiClient = ChaosTest.client(ChaosInterceptor(schedule, onFault: log.onFault), stubClient)

        await withTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { _ = await apiClient.GET("/r/\(index)") }
            }
        }

        let planned = schedule.faults(count: 100).compactMap { $0 }
        let heard = log.entries.values.map(\.fault)
        #expect(heard.count == planned.count)
        #expect(heard.filter { $0 == .status(503) }.count == planned.filter { $0 == .status(503) }.count)
        #expect(stubClient.receivedRequests.count == 100 - planned.count)
    }
}
