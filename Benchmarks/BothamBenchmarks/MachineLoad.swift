// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import Foundation
    import Glibc

    /// What else the machine did while a case ran, so that ratios measured under interference are marked noisy.
    ///
    /// A case interleaves its variants run by run (a baseline's run i beside its candidates' run i), so load that
    /// stays constant hits them alike; what can skew a ratio is load that comes and goes while the case runs. Two
    /// measures of it, from `/proc`, over the case's window:
    /// - **other processes' CPU**: the machine's busy CPU time less that of this process, its children and the
    ///   servers the run started (`BENCH_SERVER_PIDS`, set by scripts/bench.sh, with their children), in cores;
    /// - **steal**: the share of CPU time the hypervisor gave to other guests (this machine kind is a VM).
    /// The 1-minute load average at the start and end is printed too; it counts our own threads, so it is shown,
    /// not judged.
    struct MachineLoad {
        /// Other processes used more than this many cores on average: the case is noisy.
        static let otherCPULimit = 0.25
        /// The hypervisor took more than this share of the CPU time: the case is noisy.
        static let stealLimit = 0.05

        private let start: Sample
        private let wall = Stopwatch()

        /// Starts watching now.
        init() {
            start = Sample.now()
        }

        /// What happened since ``init()``.
        func finish() -> Window {
            let end = Sample.now()
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            let seconds = max(wall.seconds, 1e-9)
            let busy = Double(end.machine.busy - start.machine.busy) / ticks
            let ours = Double(end.ours - start.ours) / ticks
            let total = Double(end.machine.total - start.machine.total)
            return Window(
                otherCores: max(0, busy - ours) / seconds,
                steal: total > 0 ? Double(end.machine.steal - start.machine.steal) / total : 0,
                loadAverage: (start.loadAverage, end.loadAverage))
        }

        /// The case's window, judged.
        struct Window {
            let otherCores: Double
            let steal: Double
            let loadAverage: (start: String, end: String)

            /// Why the case's ratios are noisy, or `nil` when they are not.
            var noise: String? {
                var reasons: [String] = []
                if otherCores > MachineLoad.otherCPULimit {
                    reasons.append("other processes used \(Report.format(otherCores)) cores")
                }
                if steal > MachineLoad.stealLimit {
                    reasons.append("the hypervisor stole \(Report.format(steal * 100))% of the CPU")
                }
                return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
            }

            var summary: String {
                "other processes \(Report.format(otherCores)) cores, steal \(Report.format(steal * 100))%, "
                    + "load average \(loadAverage.start) → \(loadAverage.end)"
            }
        }

        /// The counters at one instant, in clock ticks.
        private struct Sample {
            let machine: CPUTimes
            /// CPU time of this process, its children and the servers (and theirs).
            let ours: Int
            let loadAverage: String

            static func now() -> Sample {
                Sample(machine: CPUTimes.now(), ours: OwnProcesses.cpuTicks(), loadAverage: Machine.loadAverage)
            }
        }
    }

#endif
