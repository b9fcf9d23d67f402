// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation

    /// What the run ran on.
    enum Machine {
        static func describe() -> [String: String] {
            let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            let model =
                cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
                .flatMap { $0.split(separator: ":", maxSplits: 1).last }
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
            return [
                "cpus": "\(ProcessInfo.processInfo.activeProcessorCount)",
                "cpu model": model,
                "memory": "\(ProcessInfo.processInfo.physicalMemory >> 20) MiB",
                "os": ProcessInfo.processInfo.operatingSystemVersionString,
                "load average": loadAverage,
            ]
        }

        /// The first three fields of /proc/loadavg.
        static var loadAverage: String {
            let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
            return text.split(separator: " ").prefix(3).joined(separator: " ")
        }
    }

#endif
