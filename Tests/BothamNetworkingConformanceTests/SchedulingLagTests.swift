import BothamNetworking
import BothamNetworkingConformance
import Foundation
import Testing

extension ConformanceTests {
    @Suite("The scheduling delay that extends the checks' upper bounds", .timeLimit(.minutes(1)))
    struct SchedulingLagTests {
        @Test("the probe counts the time every cooperative thread was held")
        func countsAStall() async {
            let lag = SchedulingLag()
            defer { lag.stop() }
            // The cooperative pool has one thread per core: as many tasks, once all of them run, hold it whole for
            // 150 ms (kept short: it stalls every test running beside it), and the probe cannot run meanwhile.
            let threads = ProcessInfo.processInfo.activeProcessorCount
            let arrived = Lock(0)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threads {
                    group.addTask {
                        arrived.withLock { $0 += 1 }
                        let deadline = ContinuousClock.now + .seconds(10)
                        while arrived.withLock({ $0 }) < threads, ContinuousClock.now < deadline {}
                        usleep(150_000)
                    }
                }
            }
            #expect(lag.measured >= .milliseconds(120), "measured \(lag.measured)")
        }
    }
}
