#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's CPU time and peak resident set, from `getrusage` (or its ended children's), shared by every
/// benchmark executable.
public struct ResourceUsage: Sendable {
    /// Whose usage: this process, or its children that have ended and been waited for.
    public enum Owner: Sendable {
        case thisProcess
        case endedChildren
    }

    /// User plus system CPU time, in seconds, of every thread (of this process, or of its ended children).
    public let cpuSeconds: Double
    /// The peak resident set size so far, in KiB (`ru_maxrss`).
    public let maxRSSKiB: Int

    /// The usage of `owner` now.
    public static func now(of owner: Owner = .thisProcess) -> ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage((owner == .thisProcess ? RUSAGE_SELF : RUSAGE_CHILDREN).rawValue, &usage)
        #else
            getrusage(owner == .thisProcess ? RUSAGE_SELF : RUSAGE_CHILDREN, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), maxRSSKiB: Int(usage.ru_maxrss))
    }
}
