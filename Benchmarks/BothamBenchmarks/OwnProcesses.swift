// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation
    import Glibc

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
