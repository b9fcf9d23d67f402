// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
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

    /// The machine's CPU time from the first line of `/proc/stat`, in clock ticks.
    struct CPUTimes {
        let busy: Int
        let steal: Int
        let total: Int

        static func now() -> CPUTimes {
            let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
            let fields = (text.split(separator: "\n").first ?? "").split(separator: " ").dropFirst().compactMap {
                Int($0)
            }
            // user nice system idle iowait irq softirq steal …; idle and iowait are not busy.
            let value = { (index: Int) in index < fields.count ? fields[index] : 0 }
            let total = (0..<min(fields.count, 8)).reduce(0) { $0 + value($1) }
            let idle = value(3) + value(4)
            return CPUTimes(busy: total - idle - value(7), steal: value(7), total: total)
        }
    }

    /// The processes whose CPU is the benchmark's own: this process, the servers scripts/bench.sh started
    /// (`BENCH_SERVER_PIDS`, space-separated), and the children of each.
    enum OwnProcesses {
        static func cpuTicks() -> Int {
            var roots = Set([Int(getpid())])
            for pid in (ProcessInfo.processInfo.environment["BENCH_SERVER_PIDS"] ?? "").split(separator: " ") {
                if let pid = Int(pid) { roots.insert(pid) }
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            var total = 0
            for name in names {
                guard let pid = Int(name), let stat = stat(of: pid) else { continue }
                if roots.contains(pid) || roots.contains(stat.parent) { total += stat.cpuTicks }
            }
            return total
        }

        /// The parent and the CPU time (user + system, own and of waited-for children) of `pid`.
        private static func stat(of pid: Int) -> (parent: Int, cpuTicks: Int)? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state ppid … utime(14) stime(15) cutime(16) cstime(17), numbered from 1.
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 15, let parent = Int(fields[1]) else { return nil }
            let ticks = (11...14).compactMap { Int(fields[$0]) }.reduce(0, +)
            return (parent, ticks)
        }
    }

#endif
