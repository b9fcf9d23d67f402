import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("Transfers through StubHTTPClient", .timeLimit(.minutes(1)))
struct StubTransferTests {
    static func client(_ stub: StubHTTPClient) -> BothamAPIClient {
        BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
    }

    @Test("a stubbed body downloaded to a file lands in the file, with progress in steps ending at the total")
    func download() async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let stub = StubHTTPClient()
        let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
        stub.stub(.path("/export"), with: .response(body: body))
        let destination = folder.file("export.bin")
        let log = Recorder<TransferProgress>()

        let response = try await Self.client(stub).download("/export", to: .file(destination), progress: log.append)
            .get()

        #expect(response.bodyFileURL == destination)
        #expect(response.body.isEmpty)
        #expect(try Data(contentsOf: destination) == body)
        #expect(try folder.contents() == ["export.bin"])
        #expect(log.reports(.download).map(\.completedBytes) == [2500, 5000, 7500, 10_000])
        log.expectMonotonic(.download, endingAt: 10_000)
    }

    @Test("a file upload through the stub is read from its file and reports its progress")
    func fileUpload() async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let stub = StubHTTPClient()
        let body = Data(repeating: 7, count: 4096)
        let file = try writeFile(body, named: "in.bin", in: folder)
        stub.stub(.method(.post) && .body(body), with: .response(statusCode: 201))
        let log = Recorder<TransferProgress>()

        let response = try await Self.client(stub)
            .upload("/files", fromFile: file, contentType: "application/octet-stream", progress: log.append).get()

        #expect(response.statusCode == 201)
        #expect(stub.receivedRequests.first?.body?.fileURL == file)
        #expect(stub.receivedRequests.first?.headers[.contentType] == "application/octet-stream")
        log.expectMonotonic(.upload, endingAt: 4096)
        #expect(log.last?.direction == .download)
    }

    @Test("a stubbed failure leaves no file, and a destination error is reported before the stub is asked")
    func failures() async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let stub = StubHTTPClient()
        stub.stub(with: .failure(.networkError(APIClientError.NetworkFailure(kind: .connectionLost))))
        let apiClient = Self.client(stub)

        let failed = await apiClient.download("/x", to: .file(folder.file("x.bin")))
        #expect(failed.error.map { if case .networkError = $0 { true } else { false } } == true)
        #expect(try folder.contents().isEmpty)

        let existing = try writeFile(Data("keep".utf8), named: "keep.txt", in: folder)
        let refused = await apiClient.download("/x", to: .file(existing))
        #expect(refused.destinationErrorKind == .fileExists)
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("the progress stream of a transfer follows the call and finishes when it ends")
    func stream() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .response(body: Data(count: 400)))
        let apiClient = Self.client(stub)

        let call = apiClient.startTransfer(apiClient.request(.post, "/echo", body: .data(Data(count: 100))))
        var reports: [TransferProgress] = []
        for await report in call.progress { reports.append(report) }

        #expect(try await call.result.get().body.count == 400)
        #expect(reports.filter { $0.direction == .upload }.last?.completedBytes == 100)
        #expect(reports.last == TransferProgress(direction: .download, completedBytes: 400, totalBytes: 400))
    }

    @Test("the reporter drops repeats and regressions per direction")
    func reporterFilters() {
        let log = Recorder<TransferProgress>()
        let reporter = TransferProgress.Reporter(log.append)
        reporter.report(.download, completed: 10, total: 100)
        reporter.report(.download, completed: 10, total: 100)
        reporter.report(.upload, completed: 5, total: 5)
        reporter.report(.download, completed: 5, total: 100)
        reporter.report(.download, completed: 50, total: nil)
        reporter.report(.download, completed: 100, total: 100)
        reporter.report(.download, completed: 100, total: 100)

        #expect(log.reports(.download).map(\.completedBytes) == [10, 100])
        #expect(log.reports(.upload).map(\.completedBytes) == [5])
    }
}
