import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Multipart bodies with files and temporary files", .timeLimit(.minutes(1)))
struct MultipartFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("botham-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Deterministic pseudo-random bytes that never contain `--botham`.
    private func bytes(_ count: Int) -> Data {
        var state: UInt32 = 2_463_534_242
        return Data(
            (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return UInt8(truncatingIfNeeded: state)
            }
        )
    }

    private func file(_ name: String, _ data: Data) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test("a file URL part takes its filename and content type from the URL")
    func filePart() throws {
        defer { cleanUp() }
        let content = bytes(70_000)
        let url = try file("photo.PNG", content)
        var form = MultipartFormData()
        form.append(fileAt: url, name: "photo")
        form.append(fileAt: url, name: "renamed", filename: "other.dat", contentType: "image/x-custom")
        let parts = try MultipartParser.parse(try form.encoded(), boundary: form.boundary)
        #expect(parts[0].disposition == #"form-data; name="photo"; filename="photo.PNG""#)
        #expect(parts[0].contentType == "image/png")
        #expect(parts[0].content == content)
        #expect(parts[1].disposition == #"form-data; name="renamed"; filename="other.dat""#)
        #expect(parts[1].contentType == "image/x-custom")
    }

    @Test("above the threshold the body is assembled in a temporary file that parses back byte for byte")
    func temporaryFile() throws {
        defer { cleanUp() }
        let big = bytes(600_000)
        let url = try file("big.bin", big)
        var form = MultipartFormData()
        form.append("caption", name: "title")
        form.append(fileAt: url, name: "upload")
        form.append(bytes(1_000), name: "inline", filename: "inline.bin")
        let body = try form.body(inMemoryThreshold: 1_024, temporaryDirectory: directory)
        let bodyURL = try #require(body.fileURL)
        let written = try Data(contentsOf: bodyURL)
        #expect(written.count == (try form.contentLength()))
        #expect(written == (try form.encoded()))
        let parts = try MultipartParser.parse(written, boundary: form.boundary)
        #expect(parts.map(\.content) == [Data("caption".utf8), big, bytes(1_000)])
        #expect(try body.encoded(forContentType: nil).contentType == form.contentType)
    }

    @Test("below the threshold the body is in memory")
    func inMemory() throws {
        var form = MultipartFormData()
        form.append("x", name: "a")
        let body = try form.body(inMemoryThreshold: 1_024, temporaryDirectory: directory)
        #expect(body.fileURL == nil)
        cleanUp()
    }

    @Test("the temporary file is deleted when the last body referring to it goes away")
    func deletion() throws {
        defer { cleanUp() }
        var form = MultipartFormData()
        form.append(bytes(5_000), name: "f", filename: "f.bin")
        var bodyURL: URL?
        do {
            let body = try form.body(inMemoryThreshold: 10, temporaryDirectory: directory)
            let request = HTTPRequest(method: .post, baseEndpoint: "https://example.com", body: body)
            bodyURL = request.body?.fileURL
            #expect(FileManager.default.fileExists(atPath: try #require(bodyURL).path))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(bodyURL).path))
    }

    @Test("a delimiter split across chunk edges is still found, and the partial file is removed")
    func collisionAcrossChunks() throws {
        defer { cleanUp() }
        let content = Data(String(repeating: "a", count: 10).utf8) + Data("--edge".utf8) + Data("tail".utf8)
        var form = MultipartFormData(boundary: "edge")
        form.append(fileAt: try file("c.txt", content), name: "f")
        let output = directory.appendingPathComponent("out")
        for chunkSize in [1, 3, 7, 11, 12, 64] {
            #expect(throws: APIClientError.self) { try form.write(to: output, chunkSize: chunkSize) }
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        var clean = MultipartFormData(boundary: "edge")
        clean.append(fileAt: try file("d.txt", Data("--edg e-edge".utf8)), name: "f")
        try clean.write(to: output, chunkSize: 3)
        #expect(
            try MultipartParser.parse(Data(contentsOf: output), boundary: "edge").first?.content
                == Data("--edg e-edge".utf8))
    }

    @Test("a temporary-file body goes to the transport as a file with its Content-Type")
    func throughTheClient() async throws {
        defer { cleanUp() }
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        var form = MultipartFormData()
        form.append(bytes(4_096), name: "f", filename: "f.bin")
        let body = try form.body(inMemoryThreshold: 100, temporaryDirectory: directory)
        _ = try await apiClient.POST("/upload", body: body).get()
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.body?.fileURL == body.fileURL)
        #expect(sent.headers[.contentType] == form.contentType)
        let parts = try MultipartParser.parse(try #require(try sent.bodyData()), boundary: form.boundary)
        #expect(parts.first?.content == bytes(4_096))
    }

    @Test("a file body keeps the user's Content-Type, and a missing file is an invalid request sent to no one")
    func fileBodies() async throws {
        defer { cleanUp() }
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        let url = try file("doc.json", Data("{}".utf8))
        _ = try await apiClient.PUT(
            "/doc", headers: [.contentType: "application/vnd.x+json"], body: .file(url, contentType: "application/json")
        ).get()
        #expect(stub.receivedRequests.first?.headers[.contentType] == "application/vnd.x+json")
        #expect(try stub.receivedRequests.first?.bodyData() == Data("{}".utf8))

        let missing = await apiClient.PUT("/doc", body: .file(directory.appendingPathComponent("nope")))
        guard case .failure(.invalidRequest) = missing else {
            Issue.record("expected invalidRequest, got \(missing)")
            return
        }
        var form = MultipartFormData()
        form.append(fileAt: directory.appendingPathComponent("nope"), name: "f")
        let failed = await apiClient.POST("/upload", body: .multipart(form))
        guard case .failure(.invalidRequest) = failed else {
            Issue.record("expected invalidRequest, got \(failed)")
            return
        }
        #expect(stub.receivedRequests.count == 1)
    }
}
