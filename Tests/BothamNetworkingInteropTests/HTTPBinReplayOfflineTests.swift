import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The second half of `.ci/run`'s record-and-replay check: `HTTPBinRecordReplayTests` recorded httpbin into
/// `BOTHAM_REPLAY_RECORDING`, `.ci/run` stopped httpbin, and this suite replays the file with the server gone.
///
/// It runs on its own (`swift test --filter HTTPBinReplayOfflineTests`) and skips, saying why, when the variable is
/// not set; it is not part of the `HTTPBinInteropTests` suite, which needs a running httpbin.
@Suite(
    "httpbin: replay with the server stopped",
    .enabled(
        if: OfflineRecording.file != nil,
        "BOTHAM_REPLAY_RECORDING is not set: .ci/run sets it after recording httpbin and stopping it"),
    .timeLimit(.minutes(1)))
struct HTTPBinReplayOfflineTests {
    typealias Recorded = HTTPBinInteropTests.HTTPBinRecordReplayTests

    /// The origin the recording was made against (`http://127.0.0.1:PORT`), from its first entry.
    func recordedOrigin(_ file: URL) throws -> String {
        let entries = try HTTPArchive(data: try Data(contentsOf: file), from: file).log.entries
        let first = try #require(entries.first)
        let url = try #require(URLComponents(string: first.request.url))
        let host = try #require(url.host)
        return "\(url.scheme ?? "http")://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    @Test("With httpbin stopped, the same client code replays the recording and gets the recorded answers")
    func replaysWithServerStopped() async throws {
        let file = try #require(OfflineRecording.file)
        let origin = try recordedOrigin(file)

        // The server really is gone: its port refuses connections on the real transport.
        let transport = CountingTransport(HTTPBin.transport())
        let probe = HTTPRequest(method: .get, baseEndpoint: origin, path: "/get").withTimeout(.seconds(5))
        let refused: Result<HTTPResponse, APIClientError>
        do {
            refused = .success(try await transport.send(probe))
        } catch {
            refused = .failure(error)
        }
        guard case .failure(.networkError(let failure)) = refused else {
            Issue.record("httpbin at \(origin) must be stopped, but a request got \(refused)")
            return
        }
        #expect(failure.kind == .cannotConnect, "\(failure)")
        #expect(transport.sends.value == 1)

        let replayer = RecordingHTTPClient(.replay, file: file, wrapping: transport, options: Recorded.options)
        let apiClient = BothamAPIClient(
            baseEndpoint: origin, httpClient: replayer, configuration: .init(validation: .acceptAll))
        let replayed = try await Recorded.EchoClient(apiClient: apiClient).run(secret: "another-\(UUID().uuidString)")
        #expect(replayed == Recorded.expected)
        #expect(transport.sends.value == 1, "the replay sent nothing: only the probe reached the transport")
    }

    @Test("The recording holds none of the secrets the redactor was told about, and has HAR 1.2's structure")
    func recordingHoldsNoSecret() throws {
        let file = try #require(OfflineRecording.file)
        let data = try Data(contentsOf: file)
        #expect(HARSchema.problems(data) == [])
        let text = String(decoding: data, as: UTF8.self)
        let secret = Recorded.secret
        try #require(
            ProcessInfo.processInfo.environment["BOTHAM_RECORDING_SECRET"] == secret,
            "BOTHAM_RECORDING_SECRET must be the secret the recording was made with")
        // The secret went out as the api_key query item, the Authorization header and the password JSON field, and
        // httpbin echoed each back in its answers (args, headers, json, data, url).
        for form in [secret, "Bearer \(secret)", Data(secret.utf8).base64EncodedString()] {
            #expect(!text.contains(form), "the recording holds \(form)")
        }
        #expect(text.contains("REDACTED"))
        #expect(text.contains("jane"), "what is not secret stays")
    }
}

/// The recording made by `HTTPBinRecordReplayTests` (its `BOTHAM_RECORDING_PATH`), from `BOTHAM_REPLAY_RECORDING`.
enum OfflineRecording {
    static let file: URL? = {
        guard let path = ProcessInfo.processInfo.environment["BOTHAM_REPLAY_RECORDING"], !path.isEmpty else {
            return nil
        }
        return URL(fileURLWithPath: path)
    }()
}

/// A transport that counts its sends and passes them on.
private struct CountingTransport: HTTPClient {
    let sends = Counter()
    let wrapped: any HTTPClient

    init(_ wrapped: any HTTPClient) {
        self.wrapped = wrapped
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        sends.increment()
        return try await wrapped.send(request)
    }
}
