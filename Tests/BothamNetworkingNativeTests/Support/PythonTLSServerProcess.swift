import Foundation

/// A one-shot Python TLS server process on loopback (`SlowHandshakeTLSServer`, `TruncatingTLSServer`): started with a
/// script that prints its port first, stopped by its process id.
struct PythonTLSServerProcess: Sendable {
    let port: Int
    private let process: Process

    /// Runs `python3 -c script arguments…` and waits for the port it prints on its first line (bounded by the
    /// suite's time limit).
    init(script: String, arguments: [String]) throws {
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
            process.terminate()
            throw NginxTLSServer.SetupError(description: "the TLS server did not start")
        }
        self.process = process
        self.port = port
    }

    /// Stops the server (by its process id) if it is still running.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
