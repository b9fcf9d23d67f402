import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// The `CacheCrashWriter` executable built beside this test bundle, or `nil`.
private let crashWriter: URL? = {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("CacheCrashWriter") }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

@Suite(
    "DiskCacheStore survives a writer killed mid-write",
    .enabled(if: crashWriter != nil, "the CacheCrashWriter executable is not built (run `swift build` first)"),
    // The writer is a process of its own at the lowest priority: under ThreadSanitizer it is too slow to reach its
    // entries, and there is no race to find in it.
    .disabled(if: isRunningUnderThreadSanitizer, "too slow under ThreadSanitizer; CI's plain swift test step runs it"),
    .serialized, .timeLimit(.minutes(1)))
struct DiskCacheCrashTests {
    /// Runs the writer on `folder` until it has printed `lines` lines, then kills it with SIGKILL.
    func runWriterAndKill(folder: URL, afterLines lines: Int) async throws {
        guard let writer = crashWriter else {
            Issue.record("the CacheCrashWriter executable is not built")
            return
        }
        // At the lowest priority (nice execs the writer, so the PID is the writer's): it hashes 4 MiB bodies as
        // fast as it can until it is killed, and must not starve the tests running beside it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
        process.arguments = ["-n", "19", writer.path, folder.path]
        let output = Pipe()
        process.standardOutput = output
        let seen = AsyncStream<Void>.makeStream()
        let count = Lock(0)
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            let total = count.withLock { count -> Int in
                count += text.filter { $0 == "\n" }.count
                return count
            }
            if total >= lines || text.isEmpty { seen.continuation.finish() }
        }
        try process.run()
        defer { output.fileHandleForReading.readabilityHandler = nil }
        // Bounded: the writer stores a 4 MiB entry in milliseconds.
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in seen.stream {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            seen.continuation.finish()
            return first
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(reached, "the writer never stored \(lines) entries")
        #expect(process.terminationReason == .uncaughtSignal)
    }

    @Test(
        "a writer killed while it writes leaves the last whole entry or none, never a torn body", arguments: [1, 2, 5])
    func killedMidWrite(lines: Int) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await runWriterAndKill(folder: folder, afterLines: lines)

        let stub = StubHTTPClient()
        stub.stub(with: .text("from the network", headers: ["Cache-Control": "no-store"]))
        let client = BothamAPIClient(
            baseEndpoint: "https://api.example.com", httpClient: stub, configuration: .init(validation: .acceptAll))
        client.interceptors.append(CacheInterceptor(storage: .disk(directory: folder, maxBytes: 64 << 20)))
        let response = try await client.response(for: client.request(.get, "/torn"))
        switch response.cacheStatus {
        case .hit:
            // A whole entry: the length and fill byte its fields promise, every byte of it.
            let fill = try #require(response.headers["X-Fill"].flatMap { UInt8($0) })
            let length = try #require(response.headers["X-Length"].flatMap { Int($0) })
            #expect(response.body.count == length)
            #expect(response.body.allSatisfy { $0 == fill })
        case .miss:
            #expect(response.body == Data("from the network".utf8))
        default:
            Issue.record("unexpected cache status \(String(describing: response.cacheStatus))")
        }
        // The writer stored at least `lines` entries before it died, and each store replaces the file atomically.
        #expect(response.cacheStatus == .hit)
    }
}
