// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation

    /// What a child process measured about itself, printed as one JSON line on its standard output.
    struct ChildResult: Codable, Sendable {
        /// Whether the child did its job (the transfer completed, every call succeeded).
        var ok: Bool
        /// The child's peak resident set during the measured window, KiB: the kernel's high-water mark (`VmHWM`) after
        /// resetting it (`echo 5 > /proc/self/clear_refs`) when the window starts, so start-up peaks do not hide it.
        var maxRSSKiB: Int
        /// The resident set when the measured window started, KiB (`VmRSS`): the process baseline.
        var startRSSKiB: Int
        /// CPU seconds (user + system) spent in the measured window only.
        var cpuSeconds: Double
        /// Wall seconds of the measured window.
        var wallSeconds: Double
        /// Bytes moved, calls made, or why it failed.
        var detail: String
    }

    /// Runs this executable again as `BothamBenchmarks child MODE ARGS…` and reads its result: each memory or CPU figure
    /// comes from a fresh process, so one case's heap never inflates another's peak.
    enum ChildProcess {
        static func run(_ mode: String, _ arguments: [String]) -> ChildResult {
            let executable =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["child", mode] + arguments
            let output = Pipe()
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                return failure("cannot start child: \(error)")
            }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let lastLine = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            guard let result = try? JSONDecoder().decode(ChildResult.self, from: Data(lastLine.utf8)) else {
                return failure("child \(mode) exited \(process.terminationStatus) with output \(lastLine.prefix(200))")
            }
            return result
        }

        private static func failure(_ detail: String) -> ChildResult {
            ChildResult(ok: false, maxRSSKiB: 0, startRSSKiB: 0, cpuSeconds: .nan, wallSeconds: .nan, detail: detail)
        }
    }

#endif
