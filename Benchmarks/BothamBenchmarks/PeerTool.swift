// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BenchmarkSupport
    import Foundation
    import Glibc

    /// Another HTTP client (wrk, curl) run as a child process, measured like our own clients: wall time and the CPU
    /// time the child used (`getrusage(RUSAGE_CHILDREN)` around it; the benchmark runs one child at a time).
    enum PeerTool {
        struct Outcome {
            /// What it printed on standard output (empty when it was sent to `/dev/null`).
            let output: String
            let exitStatus: Int32
            let wallSeconds: Double
            let cpuSeconds: Double
        }

        /// Runs `executable` (looked up on `PATH`) with `arguments`; `keepOutput: false` sends standard output to
        /// `/dev/null` (curl's bodies). `nil` when it cannot be started.
        static func run(_ executable: String, _ arguments: [String], keepOutput: Bool = true) -> Outcome? {
            guard let path = lookUp(executable) else { return nil }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = keepOutput ? pipe : FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let cpuBefore = ResourceUsage.now(of: .endedChildren).cpuSeconds
            let stopwatch = Stopwatch()
            do {
                try process.run()
            } catch {
                return nil
            }
            let data = keepOutput ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
            process.waitUntilExit()
            let wall = stopwatch.seconds
            return Outcome(
                output: String(decoding: data, as: UTF8.self), exitStatus: process.terminationStatus,
                wallSeconds: wall, cpuSeconds: ResourceUsage.now(of: .endedChildren).cpuSeconds - cpuBefore)
        }

        /// Whether `executable` is on `PATH`.
        static func isInstalled(_ executable: String) -> Bool { lookUp(executable) != nil }

        private static func lookUp(_ executable: String) -> String? {
            let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            return directories.map { "\($0)/\(executable)" }.first { access($0, X_OK) == 0 }
        }
    }

#endif
