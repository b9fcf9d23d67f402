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

/// A loopback server written as a Python script that prints the port it listens on as its first line.
public enum PythonServerProcess {
    /// Runs `python3 -c script arguments…` and waits for the port it prints first; the read ends when Python prints
    /// it or exits. Returns `nil`, the process stopped, when no port came. It blocks: call it off the cooperative pool.
    public static func start(script: String, arguments: [String]) throws -> (process: Process, port: Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.stopBounded()
            return nil
        }
        return (process, port)
    }
}
