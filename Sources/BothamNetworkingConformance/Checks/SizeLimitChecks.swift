import BothamNetworking
import BothamNetworkingTesting
import Foundation

extension ConformanceCheck {
    /// A body in memory larger than `maxResponseBytes` ends with `networkError(responseTooLarge)`.
    package static let maxResponseBytes = ConformanceCheck(
        .sizeLimits, "maxResponseBytes",
        "a body over maxResponseBytes ends with networkError(responseTooLarge), and one at the limit comes back"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let limit = 64 * 1_024
        let apiClient = context.apiClient(server, limits: TransportLimits(maxResponseBytes: limit))
        server.enqueue(MockResponse().withBody(conformancePattern(count: 512 * 1_024)))
        server.enqueue(MockResponse().withBody(conformancePattern(count: limit)))

        let (over, duration) = try await context.timed(within: faultDeadline * 2, "a 512 KiB body") {
            await apiClient.GET("/big")
        }
        try expect(over.networkFailureKind == .responseTooLarge, "a 512 KiB body ended with \(over.summary)")
        try expect(
            duration < context.latest(faultDeadline, for: duration), "a 512 KiB body took \(duration) to be refused")
        let at = try await context.response("a body at the limit") { await apiClient.GET("/at") }
        try expect(at.body.count == limit, "a \(limit)-byte body came back as \(at.body.count) bytes")
    }

    /// A body for a file larger than `maxFileResponseBytes` ends with `networkError(responseTooLarge)`, no file left.
    package static let maxFileResponseBytes = ConformanceCheck(
        .sizeLimits, "maxFileResponseBytes",
        "a download over maxFileResponseBytes ends with networkError(responseTooLarge) and leaves no file"
    ) { context in
        let files = try ScratchFiles()
        defer { files.remove() }
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server, limits: TransportLimits(maxFileResponseBytes: 64 * 1_024))
        server.enqueue(MockResponse().withBody(conformancePattern(count: 512 * 1_024)))
        let destination = files.file("big.bin")

        let result = try await context.send("a 512 KiB download") {
            await apiClient.download("/big", to: .file(destination))
        }

        try expect(result.networkFailureKind == .responseTooLarge, "a 512 KiB download ended with \(result.summary)")
        try expect(!FileManager.default.fileExists(atPath: destination.path), "the refused download left its file")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: files.folder.path)) ?? []
        try expect(left.isEmpty, "the refused download left \(left)")
    }
}
