import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: multipart uploads and downloads to files", .timeLimit(.minutes(1)))
    struct HTTPBinTransferTests {
        let apiClient = HTTPBin.client()

        /// A form with two fields, a file part from memory and a file part from disk.
        static func form(fileAt url: URL) -> MultipartFormData {
            var form = MultipartFormData()
            form.append("Botham", name: "name")
            form.append("ünïcode ✓", name: "note")
            form.append(Data("in memory".utf8), name: "memo", filename: "memo.txt", contentType: "text/plain")
            form.append(fileAt: url, name: "attachment", filename: "notes.txt", contentType: "text/plain")
            return form
        }

        @Test(
            "POST /post with multipart fields and files echoes them back, from memory and streamed from a file",
            arguments: [MultipartFormData.defaultInMemoryThreshold, 0])
        func multipart(inMemoryThreshold: Int) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-interop-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("notes.txt")
            let text = String(repeating: "line of notes\n", count: 2000)
            try Data(text.utf8).write(to: file)
            let body = HTTPBody.multipart(Self.form(fileAt: file), inMemoryThreshold: inMemoryThreshold)
            #expect((body.fileURL != nil) == (inMemoryThreshold == 0))

            let response = try await apiClient.POST("/post", body: body).get()

            #expect(response.statusCode == 200)
            let json = try response.json()
            #expect(json["form"]?["name"] == "Botham")
            #expect(json["form"]?["note"] == "ünïcode ✓")
            #expect(json["files"]?["memo"] == "in memory")
            #expect(json["files"]?["attachment"] == .string(text))
            guard case .string(let contentType) = json["headers"]?["Content-Type"] else {
                Issue.record("no Content-Type echoed")
                return
            }
            #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        }

        @Test("GET /bytes/{n} downloads to a file byte-exact, with progress ending at n")
        func bytesToFile() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-interop-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let count = 100 * 1024
            let destination = folder.appendingPathComponent("nested/random.bin")
            let reports = Recorder<TransferProgress>()

            let downloaded = try await apiClient.download(
                "/bytes/\(count)",
                parameters: ["seed": "42"],
                to: .file(destination, options: [.createIntermediateDirectories]),
                progress: reports.append
            ).get()
            let inMemory = try await apiClient.GET("/bytes/\(count)", parameters: ["seed": "42"]).get()

            #expect(downloaded.bodyFileURL == destination)
            let data = try Data(contentsOf: destination)
            #expect(data.count == count)
            #expect(data == inMemory.body)
            #expect(
                reports.last
                    == TransferProgress(direction: .download, completedBytes: Int64(count), totalBytes: Int64(count)))
        }

        @Test("GET /range/{n} in 16 KiB byte ranges gives the same file and the 200 that one request gives")
        func rangedDownload() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-interop-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let count = 100_000
            let whole = folder.appendingPathComponent("whole.bin")
            let ranged = folder.appendingPathComponent("ranged.bin")

            let one = try await HTTPBin.client(.init(downloadSegmentBytes: nil))
                .download("/range/\(count)", to: .file(whole)).get()
            let many = try await HTTPBin.client(.init(downloadSegmentBytes: 16 * 1024))
                .download("/range/\(count)", to: .file(ranged)).get()

            #expect(one.statusCode == 200)
            #expect(many.statusCode == 200)
            #expect(many.headers[.contentLength] == String(count))
            if !HTTPBin.runsOnNative {
                // httpbin puts `Content-Range` even on its 200; the presented 200 of a segmented download has none,
                // which shows the body really came in ranges (a fallback to one request would keep it).
                #expect(one.headers["Content-Range"] == "bytes 0-\(count - 1)/\(count)")
                #expect(many.headers["Content-Range"] == nil)
            }
            let bytes = try Data(contentsOf: ranged)
            #expect(bytes.count == count)
            #expect(bytes == (try Data(contentsOf: whole)))
        }
    }
}
