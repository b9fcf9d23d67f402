// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation

    /// Reads and resets this process's memory figures in `/proc/self`.
    enum MemoryStatus {
        /// A `Vm…` line of /proc/self/status, in KiB.
        static func kibibytes(_ field: String) -> Int? {
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
                return line.split(separator: " ").compactMap { Int($0) }.first
            }
            return nil
        }

        /// Resets the peak resident set (`VmHWM`) to the current one (Linux ≥ 4.0); false when not allowed.
        static func resetPeak() -> Bool {
            guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
            defer { try? handle.close() }
            do {
                try handle.write(contentsOf: Data("5".utf8))
                return true
            } catch {
                return false
            }
        }
    }

#endif
