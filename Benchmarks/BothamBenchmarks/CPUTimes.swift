// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation
    import Glibc

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

#endif
