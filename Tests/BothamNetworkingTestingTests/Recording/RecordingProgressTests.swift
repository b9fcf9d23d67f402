import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@Suite("RecordingHTTPClient replayed progress", .timeLimit(.minutes(1)))
struct RecordingProgressTests: RecordingSuite {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString).har")
    let server = StubHTTPClient()

    /// Records one `POST /upload` of 100 bytes answered with 40, with the given recorded durations (milliseconds).
    func record(time: Double = 0, send: Double = 0, wait: Double = 0, receive: Double = 0) async throws {
        server.stub(with: .response(body: Data(repeating: 1, count: 40)))
        let recorder = client(RecordingHTTPClient(.record, file: file, wrapping: server))
        _ = try await recorder.POST("/upload", body: .data(Data(repeating: 2, count: 100))).get()
        var archive = try archive()
        archive.log.entries[0].time = time
        archive.log.entries[0].timings.send = send
        archive.log.entries[0].timings.wait = wait
        archive.log.entries[0].timings.receive = receive
        try archive.encoded().write(to: file)
    }

    var upload: HTTPRequest {
        HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/upload",
            body: .data(Data(repeating: 2, count: 100)))
    }

    @Test("With replaysProgress a replay reports upload and download in StubHTTPClient's steps; without, nothing")
    func reportsAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        try await record()
        let reports = Recorder<TransferProgress>()
        let replayer = client(RecordingHTTPClient(replaying: file, options: RecordingOptions(replaysProgress: true)))
        let response = try await replayer.send(upload) { reports.append($0) }.get()
        #expect(response.body.count == 40)
        #expect(StubHTTPClient.progressSteps == 4)
        #expect(
            reports.values.map {
                "\($0.direction == .upload ? "up" : "down") \($0.completedBytes)/\($0.totalBytes ?? -1)"
            }
                == [
                    "up 25/100", "up 50/100", "up 75/100", "up 100/100",
                    "down 10/40", "down 20/40", "down 30/40", "down 40/40",
                ])

        let quiet = Recorder<TransferProgress>()
        _ = try await client(RecordingHTTPClient(replaying: file)).send(upload) { quiet.append($0) }.get()
        #expect(quiet.values.isEmpty, "progress is replayed only when asked")
    }

    @Test("With timing replay the upload spans the recorded send, the download the recorded receive, on the clock")
    func pacedByRecordedTiming() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        try await record(time: 100, send: 20, wait: 50, receive: 30)
        let clock = VirtualClock(sleeping: .advancesClock)
        let reports = Recorder<String>()
        let options = RecordingOptions(timing: .recorded(scale: 1), replaysProgress: true)
        let replayer = client(RecordingHTTPClient(replaying: file, options: options), clock: clock)

        _ = try await replayer.send(upload) { progress in
            let milliseconds =
                Double(clock.elapsed.components.attoseconds) / 1e15
                + Double(clock.elapsed.components.seconds) * 1000
            reports.append(
                "\(progress.direction == .upload ? "up" : "down") \(progress.completedBytes) @\(milliseconds)")
        }.get()

        #expect(
            reports.values == [
                "up 25 @5.0", "up 50 @10.0", "up 75 @15.0", "up 100 @20.0",
                "down 10 @77.5", "down 20 @85.0", "down 30 @92.5", "down 40 @100.0",
            ])
        #expect(clock.elapsed == .milliseconds(100), "the whole recorded time, no more")

        let halved = RecordingHTTPClient(
            replaying: file, options: RecordingOptions(timing: .recorded(scale: 0.5), replaysProgress: true))
        let before = clock.elapsed
        _ = try await client(halved, clock: clock).send(upload) { _ in }.get()
        #expect(clock.elapsed - before == .milliseconds(50), "scaled like the timing replay")
    }

    @Test("A paced replay beyond the request's timeout waits the timeout, times out and reports nothing")
    func pacedTimeout() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        try await record(time: 100, send: 20, wait: 50, receive: 30)
        let clock = VirtualClock(sleeping: .advancesClock)
        let reports = Recorder<TransferProgress>()
        let options = RecordingOptions(timing: .recorded(scale: 1), replaysProgress: true)
        let replayer = client(RecordingHTTPClient(replaying: file, options: options), clock: clock)
        let result = await replayer.send(upload.withTimeout(.milliseconds(60))) { reports.append($0) }
        guard case .failure(.timeout) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(clock.elapsed == .milliseconds(60))
        #expect(reports.values.isEmpty)
    }
}
