import BothamNetworking
import BothamNetworkingTesting
import Foundation

extension ConformanceCheck {
    /// A body uploaded from a file arrives byte for byte with its `Content-Type`.
    package static let uploadFromFile = ConformanceCheck(
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

    /// A 307 or 308 after an upload from a file sends the file again, byte for byte, to the new location.
    package static let redirectResendsFile = ConformanceCheck(
        .fileBodies, "redirectResendsFile", "a 307 or 308 after an upload from a file sends the whole file again"
    ) { context in
        let files = try ScratchFiles()
        defer { files.remove() }
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        let body = conformancePattern(count: 512 * 1024)
        let file = try files.write(body, to: "resent.bin")
        for status in [307, 308] {
            server.enqueue(contentsOf: [
                MockResponse(statusCode: status).withHeader("Location", server.url("/moved").absoluteString),
                MockResponse(statusCode: 201),
            ])
            let response = try await context.response("POST from a file answered with \(status)") {
                await apiClient.POST("/upload", body: .file(file))
            }
            let original = try await context.take(server, "the POST")
            try expect(original.body == body, "\(status): the first POST's file did not arrive whole")
            let followed = try await context.take(server, "the request following the \(status)")
            try expect(followed.method == .post, "\(status): followed with \(followed.method), not POST")
            try expect(followed.path == "/moved", "\(status): followed to \(followed.path)")
            try expect(
                followed.body == body,
                "\(status): the file was \(followed.body.count) of \(body.count) bytes on the second hop")
            try expect(response.statusCode == 201, "\(status): final status \(response.statusCode)")
        }
    }

    /// A body downloaded to a file lands there byte for byte, with nothing in memory.
    package static let downloadToFile = ConformanceCheck(
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

    /// A 2 MiB upload from a file and a 2 MiB download to a file report progress that ends at the total: the
    /// transport reports to `TransferProgress.Reporter.current` as it sends and receives (which keeps the reports
    /// moving forward).
    package static let transferProgress = ConformanceCheck(
        .fileBodies, "progress",
        "a 2 MiB upload and a 2 MiB download report their progress, up to the total"
    ) { context in
        let files = try ScratchFiles()
        defer { files.remove() }
        let server = try context.server()
        defer { server.shutdown() }
        let body = conformancePattern(count: 2 << 20)
        server.enqueue(contentsOf: [MockResponse(statusCode: 201), MockResponse().withBody(body)])
        let apiClient = context.apiClient(server)
        let file = try files.write(body, to: "upload.bin")

        let uploads = ProgressLog()
        _ = try await context.response("PUT from a file with progress") {
            await apiClient.upload(
                "/objects/1", method: .put, fromFile: file, contentType: "application/octet-stream",
                progress: uploads.append)
        }
        try uploads.expectReported(.upload, endingAt: Int64(body.count))

        let downloads = ProgressLog()
        _ = try await context.response("GET to a file with progress") {
            await apiClient.download("/big", to: .file(files.file("download.bin")), progress: downloads.append)
        }
        try downloads.expectReported(.download, endingAt: Int64(body.count))
    }
}
