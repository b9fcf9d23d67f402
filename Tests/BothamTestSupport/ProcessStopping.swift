import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Process {
    /// Stops this child process by its process id and waits for it: `SIGTERM`, then `SIGKILL` when it is still running
    /// after `grace` (a child may inherit `SIGTERM` blocked or ignored from the test process, and would otherwise keep
    /// `waitUntilExit` waiting forever).
    public func stopBounded(grace: Duration = .seconds(5)) {
        guard isRunning else { return }
        terminate()
        let deadline = ContinuousClock.now + grace
        // Polls the child's exit (not a synchronisation between tests): bounded by `grace`.
        while isRunning, ContinuousClock.now < deadline {
            usleep(10_000)
        }
        if isRunning {
            kill(processIdentifier, SIGKILL)
        }
        waitUntilExit()
    }
}
