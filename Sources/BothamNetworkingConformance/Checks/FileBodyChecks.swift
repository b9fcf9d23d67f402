import BothamNetworking
import BothamNetworkingTesting
import Foundation

extension ConformanceCheck {
    /// A body uploaded from a file arrives byte for byte with its `Content-Type`.
    public static let uploadFromFile = ConformanceCheck(
        .fileBodies, "uploadFromFile", "a 2 MiB body uploaded from a file arrives byte for byte with its Content-Type"
    ) { context in
        let files = try ScratchFiles()
        defer { files.remove() }
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse(statusCode: 201))
        let apiClient = context.apiClient(server)
        let body = conformancePattern(count: 2 << 20)
        let file = try files.write(body, to: "upload.bin")

        let response = try await context.response("PUT from a file") {
            await apiClient.upload("/objects/1", method: .put, fromFile: file, contentType: "application/x-test")
        }

        try expect(response.statusCode == 201, "status \(response.statusCode)")
        let recorded = try await context.take(server)
        try expect(recorded.method == .put, "the upload was sent with \(recorded.method)")
        try expect(
            recorded.body == body, "a \(body.count)-byte file arrived as \(recorded.body.count) bytes, not the same")
        try expect(
            recorded.header("Content-Type") == "application/x-test",
            "Content-Type: \(recorded.header("Content-Type") ?? "none")")
    }

    /// A body downloaded to a file lands there byte for byte, with nothing in memory.
    public static let downloadToFile = ConformanceCheck(
        .fileBodies, "downloadToFile", "a 2 MiB body downloaded to a file lands there byte for byte, none in memory"
    ) { context in
        let files = try ScratchFiles()
        defer { files.remove() }
        let server = try context.server()
        defer { server.shutdown() }
        let body = conformancePattern(count: 2 << 20)
        server.enqueue(MockResponse().withBody(body))
        let apiClient = context.apiClient(server)
        let destination = files.file("download.bin")

        let response = try await context.response("GET to a file") {
            await apiClient.download("/big", to: .file(destination))
        }

        try expect(response.statusCode == 200, "status \(response.statusCode)")
        try expect(response.body.isEmpty, "the response also held \(response.body.count) bytes in memory")
        try expect(
            response.bodyFileURL?.standardizedFileURL.path == destination.standardizedFileURL.path,
            "bodyFileURL is \(response.bodyFileURL?.path ?? "nil")")
        let written = (try? Data(contentsOf: destination)) ?? Data()
        try expect(written == body, "the file holds \(written.count) bytes, not the \(body.count) sent")
    }
}
