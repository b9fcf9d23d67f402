import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension HTTPBinInteropTests {
    /// Record real httpbin traffic once, then replay it with nothing reaching the network: the same client code
    /// gets the same answers, and the recording holds none of the secrets the redactor was told about.
    @Suite("httpbin: record and replay", .timeLimit(.minutes(1)))
    struct HTTPBinRecordReplayTests {
        /// Where the recording goes: `BOTHAM_RECORDING_PATH` when set (to keep it), else a fresh temporary file.
        let recording: URL = {
            if let path = ProcessInfo.processInfo.environment["BOTHAM_RECORDING_PATH"], !path.isEmpty {
                return URL(fileURLWithPath: path)
            }
            return FileManager.default.temporaryDirectory.appendingPathComponent("httpbin-\(UUID().uuidString).har")
        }()
        let secret = Self.secret
        let options = Self.options

        /// The secret sent as `api_key`, `Authorization` and `password`: `BOTHAM_RECORDING_SECRET` when set (so
        /// that `HTTPBinReplayOfflineTests` can look for it in the file later), else a fresh one.
        static let secret: String = {
            if let value = ProcessInfo.processInfo.environment["BOTHAM_RECORDING_SECRET"], !value.isEmpty {
                return value
            }
            return "s3cr3t-\(UUID().uuidString)"
        }()
        /// httpbin echoes what it was sent, so its answers carry the secrets too: name the fields it echoes them in.
        static let options = RecordingOptions(
            redactor: Redactor(bodyFieldNames: ["authorization", "api_key", "url", "data"]))
        /// What ``EchoClient/run(secret:)`` makes of httpbin's answers, live and replayed.
        static let expected = EchoClient.Summary(
            page: "2", user: "jane", status: 418, bytes: 64, streamedUser: "jane", uploadedLength: "29",
            downloaded: Data(String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 40).utf8).prefix(1_000),
            streamedIDs: [0, 1, 2])

        /// The API client code under test, the same for the recording and the replay.
        struct EchoClient {
            let apiClient: BothamAPIClient

            /// What the client makes of httpbin's answers (none of it secret).
            struct Summary: Equatable {
                var page: JSONValue?
                var user: JSONValue?
                var status: Int
                var bytes: Int
                var streamedUser: JSONValue?
                /// The length httpbin says a file upload had.
                var uploadedLength: JSONValue?
                /// What a download to a file wrote there.
                var downloaded: Data
                /// The `id` of each line of a streamed NDJSON response, as read line by line.
                var streamedIDs: [Int]
            }

            func run(secret: String) async throws -> Summary {
                let search = try await apiClient.GET(
                    "/anything/search", parameters: ["page": "2", "api_key": secret],
                    headers: ["Authorization": "Bearer \(secret)"]
                ).get().json()
                let login = try await apiClient.POST(
                    "/anything/login", body: ["user": "jane", "password": .string(secret)]
                ).get().json()
                let teapot = try await apiClient.GET("/status/418").get()
                let bytes = try await apiClient.GET("/bytes/64").get()
                let parts = [#"{"user":"jane","#, #""password":""#, secret, #""}"#].map { Data($0.utf8) }
                let streamed = try await apiClient.POST(
                    "/anything/ingest",
                    body: .stream(
                        length: parts.reduce(0) { $0 + $1.count }, contentType: "application/json",
                        AsyncStream { continuation in
                            for part in parts { continuation.yield(part) }
                            continuation.finish()
                        })
                ).get().json()
                let files = FileManager.default.temporaryDirectory.appendingPathComponent("echo-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: files) }
                let report = files.appendingPathComponent("report.txt")
                try Data("a report uploaded from a file".utf8).write(to: report)
                let uploaded = try await apiClient.upload(
                    "/anything/upload", fromFile: report, contentType: "text/plain"
                ).get().json()
                let destination = files.appendingPathComponent("range.txt")
                let download = try await apiClient.download("/range/1000", to: .file(destination)).get()
                let feed = try await apiClient.stream(.get, "/stream/3")
                var ids: [Int] = []
                for try await line in feed.lines {
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    if let id = object?["id"] as? Int { ids.append(id) }
                }
                return Summary(
                    page: search["args"]?["page"], user: login["json"]?["user"],
                    status: teapot.statusCode, bytes: bytes.body.count, streamedUser: streamed["json"]?["user"],
                    uploadedLength: uploaded["headers"]?["Content-Length"],
                    downloaded: try Data(contentsOf: download.bodyFileURL ?? destination), streamedIDs: ids)
            }
        }

        @Test("Traffic recorded from httpbin replays with every send failing, and the file holds no secret")
        func recordThenReplayOffline() async throws {
            let recorder = RecordingHTTPClient(
                .record, file: recording, wrapping: HTTPBin.transport(), options: options)
            let live = try await EchoClient(apiClient: client(recorder)).run(secret: secret)
            #expect(live == Self.expected)

            let data = try Data(contentsOf: recording)
            #expect(HARSchema.problems(data) == [], "a real recording has HAR 1.2's structure")
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(secret), "the recording must not hold the secret")
            #expect(text.contains("REDACTED"))
            #expect(text.contains(#""version" : "1.2""#))
            let ingest = try #require(
                try recorder.entries.first { $0.request.url.hasSuffix("/anything/ingest") }?.request.postData)
            #expect(ingest.text?.contains("jane") == true, "the streamed body is recorded as the transport sent it")

            let network = FailingTransport()
            let replayer = RecordingHTTPClient(.replay, file: recording, wrapping: network, options: options)
            let replayed = try await EchoClient(apiClient: client(replayer)).run(secret: secret)
            #expect(replayed == live)
            #expect(network.sends.value == 0, "nothing reached the network")

            let unrecorded = await client(replayer).GET("/anything/other")
            guard case .failure(.httpClientError(let underlying)) = unrecorded, underlying is RecordingError else {
                Issue.record("an unrecorded request must fail closed, got \(unrecorded)")
                return
            }
            #expect(network.sends.value == 0)
        }

        func client(_ transport: any HTTPClient) -> BothamAPIClient {
            BothamAPIClient(
                baseEndpoint: HTTPBin.url ?? "http://127.0.0.1:9", httpClient: transport,
                configuration: .init(validation: .acceptAll))
        }
    }
}

/// A transport that fails every send and counts them: a replay through it proves nothing reached the network.
private struct FailingTransport: HTTPClient {
    let sends = Counter()

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        sends.increment()
        throw .networkError(APIClientError.NetworkFailure(kind: .cannotConnect))
    }
}
