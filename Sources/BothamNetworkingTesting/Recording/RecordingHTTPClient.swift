import BothamNetworking
import Foundation

/// A transport decorator that records real traffic to a HAR 1.2 file once and answers from it ever after: tests
/// of an API client that run offline, in CI, against what the real server really said.
///
/// ```swift
/// let recording = URL(fileURLWithPath: "Tests/Recordings/github-issues.har")
/// let transport = RecordingHTTPClient(
///     .recordIfMissing, file: recording, wrapping: URLSessionHTTPClient(),
///     options: RecordingOptions(redactor: Redactor(bodyFieldNames: ["email"])))
/// let apiClient = BothamAPIClient(baseEndpoint: "https://api.github.com", httpClient: transport)
/// ```
///
/// - ``Mode/record`` passes every call to the wrapped transport and writes each exchange to the file (a fresh
///   file: what was there is replaced on the first write).
/// - ``Mode/replay`` never calls the wrapped transport: it answers from the file, and fails closed — a request no
///   recorded exchange matches fails with `APIClientError.httpClientError(underlying:)` holding
///   ``RecordingError/noMatch(_:)``, whose description is a diff against the closest recorded request.
/// - ``Mode/recordIfMissing`` answers from the file when an exchange matches and records the others (the file may
///   not exist yet): the first run records, every later run replays.
///
/// What is written is redacted with `RecordingOptions(redactor:)` — header values, query items and named JSON and
/// form body fields, of requests and responses — so a recording can be committed; replayed responses carry
/// `REDACTED` where a secret was. Requests match as `RecordingOptions(matching:)` says (method and URL by default),
/// compared in their redacted form. Several recorded exchanges that match one request answer it in the order they
/// were recorded, one per send, and then the last repeats.
///
/// Bodies:
/// - a request body is recorded as sent; a file body is read from its file (up to
///   `RecordingOptions(maximumBodySize:)`); a streamed request body (`HTTPBody.stream`) is copied as the wrapped
///   transport reads it — read once, never twice — and recorded when the transport read it to its end (the last
///   attempt of a replayable body resent after a 307/308); one larger than `maximumBodySize`, or not read to its
///   end when the response came, is left out with a comment saying why;
/// - in ``Mode/replay`` and ``Mode/recordIfMissing`` a streamed request body is read only when
///   ``ReplayMatching/body`` is on, up to `maximumBodySize`, and compared like any body; when it is recorded after
///   all, the chunks read go out first and the rest follow from the same sequence;
/// - a response body in memory or in a file destination is recorded whole; a streamed response is passed on to the
///   caller chunk by chunk while it is copied, and its exchange is written when the body ends, before the caller
///   sees the end (a body the caller stopped reading early is recorded without its body, and replaying it fails
///   with ``RecordingError/bodyNotRecorded(request:reason:)``);
/// - a streamed response is recorded with its chunks' sizes and arrival times (`content._chunks`), and replayed to
///   a streaming call in the same chunks — at their recorded times, scaled, with `RecordingOptions(timing:)` — so
///   Server-Sent Events or NDJSON arrive as they did; any other replayed body is returned in memory: the client
///   writes it to a file destination, and hands it to a streaming call as one chunk;
/// - text that is valid UTF-8 is written as text, anything else as base64 (`"encoding": "base64"`).
///
/// Transport failures (timeouts, refused connections) pass through and are not recorded. The file is rewritten
/// after every exchange, atomically (a temporary file renamed over it), one write at a time: concurrent calls each
/// add their exchange and a reader never sees half a file. `RecordingOptions(timing:)` replays the recorded
/// durations when you ask, and `RecordingOptions(replaysProgress:)` reports a replayed answer's upload and download
/// progress, paced by those durations when timing replay is on.
public final class RecordingHTTPClient: HTTPClient {
    /// Whether to record, replay, or replay what is there and record the rest.
    public enum Mode: Sendable, Hashable {
        /// Pass every call through and record it, replacing the file.
        case record
        /// Answer from the file only; never call the wrapped transport.
        case replay
        /// Answer from the file when an exchange matches; pass the others through and add them to it.
        case recordIfMissing
    }

    private struct State {
        /// The archive as recorded so far or as read from the file; `nil` until the first call needs it.
        var archive: HTTPArchive?
        /// How often each entry answered a replay.
        var served: [Int: Int] = [:]
    }

    /// The mode.
    package let mode: Mode
    /// The HAR file.
    package let file: URL
    private let transport: any HTTPClient
    private let options: RecordingOptions
    private let state = Lock(State())

    /// A recorder or replayer of `file` around `transport` (which ``Mode/replay`` never calls).
    public init(_ mode: Mode, file: URL, wrapping transport: any HTTPClient, options: RecordingOptions = .init()) {
        self.mode = mode
        self.file = file
        self.transport = transport
        self.options = options
    }

    /// A replayer of `file` with no transport behind it.
    public convenience init(replaying file: URL, options: RecordingOptions = .init()) {
        self.init(.replay, file: file, wrapping: NoTransport(), options: options)
    }

    /// The exchanges recorded or read so far (reading the file first when nothing was).
    package var entries: [HTTPArchive.Entry] {
        get throws(RecordingError) {
            try withArchive { archive, _ in archive.log.entries }
        }
    }

    /// Answers from the recording, or sends through the wrapped transport and records, as its mode says.
    public func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        var request = try request.prepared()
        var recorded = HTTPArchive.Request(
            request, redactor: options.redactor, maximumBodySize: options.maximumBodySize)
        if mode != .record, options.matching.body, let streamed = request.body?.streamed {
            // Read it to compare it with the recording; should it be recorded after all (record if missing), the
            // chunks read go out first and the rest follow from the same sequence: it is read once.
            let read = try await StreamedBodyTee.read(streamed, limit: options.maximumBodySize)
            recorded.recordStreamedBody(
                read.capture, contentType: request.headers[.contentType], redactor: options.redactor,
                maximumBodySize: options.maximumBodySize)
            if !streamed.isReplayable {
                request = request.withBody(
                    StreamedBodyTee.resumed(
                        streamed, contentType: request.headers[.contentType], read: read.chunks, rest: read.rest))
            }
        }
        switch mode {
        case .replay:
            return try await replay(request, recorded: recorded, orRecord: false)
        case .recordIfMissing:
            return try await replay(request, recorded: recorded, orRecord: true)
        case .record:
            return try await record(request, recorded: recorded)
        }
    }

    // MARK: Replay

    private func replay(
        _ request: HTTPRequest, recorded: HTTPArchive.Request, orRecord: Bool
    ) async throws(APIClientError) -> HTTPResponse {
        let choice: Result<HTTPArchive.Entry, ReplayMismatch>
        do {
            choice = try withArchive { archive, served in
                Self.choose(recorded, in: archive.log.entries, matching: options.matching, served: &served)
            }
        } catch {
            throw .httpClientError(underlying: error)
        }
        let entry: HTTPArchive.Entry
        switch choice {
        case .success(let found):
            entry = found
        case .failure(let mismatch):
            if orRecord { return try await record(request, recorded: recorded) }
            throw .httpClientError(underlying: RecordingError.noMatch(mismatch))
        }
        let response: Result<HTTPResponse, RecordingError>
        do throws(RecordingError) {
            response = .success(try entry.response.response(to: request))
        } catch {
            response = .failure(error)
        }
        let reporter = options.replaysProgress ? TransferProgress.Reporter.current : nil
        if case .stream = request.responseDestination, case .success(let answer) = response,
            let chunks = entry.response.content.chunks, !chunks.isEmpty
        {
            return try await stream(answer, in: chunks, of: entry, request: request, reporter: reporter)
        }
        if let reporter, case .success(let answer) = response {
            try await pace(entry, request: request, recorded: recorded, answer: answer, reporter: reporter)
        } else if case .recorded(let scale) = options.timing {
            try await wait(milliseconds: entry.time * max(0, scale), timeout: request.timeout)
        }
        do {
            return try response.get()
        } catch {
            throw .httpClientError(underlying: error)
        }
    }

    /// `answer` with its body streamed in the recorded chunks: at once, or with ``ReplayTiming/recorded(scale:)``
    /// the head after the entry's scaled time before its body (a wait beyond the request's timeout times out) and
    /// each chunk at its scaled time after the head, on the call's clock. The download progress, when reported, moves
    /// with the chunks. A body that redaction made longer or shorter than its chunks keeps their cuts as far as they
    /// go, its rest in one last chunk.
    private func stream(
        _ answer: HTTPResponse, in chunks: [HTTPArchive.Chunk], of entry: HTTPArchive.Entry, request: HTTPRequest,
        reporter: TransferProgress.Reporter?
    ) async throws(APIClientError) -> HTTPResponse {
        var scale: Double?
        if case .recorded(let rawScale) = options.timing { scale = max(0, rawScale) }
        let headWait = max(0, entry.time - entry.timings.receive) * (scale ?? 0)
        if headWait > 0 { try await wait(milliseconds: headWait, timeout: request.timeout) }
        if let reporter, request.body != nil {
            let upload = Int64(max(0, entry.request.bodySize))
            reporter.report(.upload, completed: upload, total: upload)
        }
        var pieces: [(data: Data, at: Double)] = []
        var offset = answer.body.startIndex
        for chunk in chunks where offset < answer.body.endIndex {
            let end = answer.body.index(offset, offsetBy: max(0, chunk.size), limitedBy: answer.body.endIndex)
            let piece = answer.body[offset..<(end ?? answer.body.endIndex)]
            offset = end ?? answer.body.endIndex
            if !piece.isEmpty { pieces.append((Data(piece), chunk.time * (scale ?? 0))) }
        }
        if offset < answer.body.endIndex { pieces.append((Data(answer.body[offset...]), pieces.last?.at ?? 0)) }
        let clock = HTTPCallContext.currentClock
        let producer = Lock<Task<Void, Never>?>(nil)
        let (body, continuation) = HTTPBodyStream.makeStream(
            onCancel: { producer.withLock { $0?.cancel() } }, clock: clock)
        let total = Int64(answer.body.count)
        let task = Task {
            let start = clock.now
            var delivered: Int64 = 0
            var now = 0.0
            for piece in pieces {
                if piece.at > now {
                    do {
                        try await clock.sleep(until: start + Self.duration(milliseconds: piece.at), tolerance: nil)
                    } catch {
                        return continuation.finish(throwing: .cancelled)
                    }
                    now = piece.at
                }
                guard await continuation.send(piece.data) else { return }
                delivered += Int64(piece.data.count)
                reporter?.report(.download, completed: delivered, total: total)
            }
            continuation.finish()
        }
        producer.withLock { $0 = task }
        if continuation.isCancelled { task.cancel() }
        return HTTPResponse(
            statusCode: answer.statusCode, headers: answer.headers, request: answer.request, url: answer.url,
            bodyStream: body)
    }

    /// Reports the upload of `recorded`'s body and the download of `answer`'s to `reporter`: at once, or with
    /// ``ReplayTiming/recorded(scale:)`` the upload across the entry's scaled `send` phase and the download across
    /// its `receive` phase, the rest of its `time` waited in between (a total beyond the request's timeout waits
    /// the timeout and times out, reporting nothing).
    private func pace(
        _ entry: HTTPArchive.Entry, request: HTTPRequest, recorded: HTTPArchive.Request, answer: HTTPResponse,
        reporter: TransferProgress.Reporter
    ) async throws(APIClientError) {
        let uploadSize: Int64? =
            request.body == nil
            ? nil : recorded.bodySize >= 0 ? Int64(recorded.bodySize) : request.body?.streamed?.length.map(Int64.init)
        let downloadSize = Int64(answer.body.count)
        guard case .recorded(let rawScale) = options.timing else {
            if let uploadSize { try await report(.upload, size: uploadSize, over: 0, to: reporter) }
            return try await report(.download, size: downloadSize, over: 0, to: reporter)
        }
        let scale = max(0, rawScale)
        let total = max(0, entry.time * scale)
        if let timeout = request.timeout, Self.duration(milliseconds: total) > timeout {
            return try await wait(milliseconds: total, timeout: timeout)
        }
        let send = min(max(0, entry.timings.send * scale), total)
        let receive = min(max(0, entry.timings.receive * scale), total - send)
        if let uploadSize {
            try await report(.upload, size: uploadSize, over: send, to: reporter)
        } else {
            try await sleep(milliseconds: send)
        }
        try await sleep(milliseconds: total - send - receive)
        try await report(.download, size: downloadSize, over: receive, to: reporter)
    }

    /// Reports `size` bytes going in `direction` in ``StubHTTPClient/progressSteps`` equal steps, each after an
    /// equal share of `milliseconds`.
    private func report(
        _ direction: TransferProgress.Direction, size: Int64, over milliseconds: Double,
        to reporter: TransferProgress.Reporter
    ) async throws(APIClientError) {
        let steps = StubHTTPClient.progressSteps
        guard size > 0 else {
            try await sleep(milliseconds: milliseconds)
            return reporter.report(direction, completed: 0, total: 0)
        }
        for step in 1...Int64(steps) {
            try await sleep(milliseconds: milliseconds / Double(steps))
            reporter.report(direction, completed: size * step / Int64(steps), total: size)
        }
    }

    /// Sleeps `milliseconds` on the call's clock; nothing when it is not positive.
    private func sleep(milliseconds: Double) async throws(APIClientError) {
        guard milliseconds > 0 else { return }
        try await wait(milliseconds: milliseconds, timeout: nil)
    }

    private static func duration(milliseconds: Double) -> Duration {
        .microseconds(Int64(min(milliseconds * 1000, 1e15)))
    }

    /// The entry to answer `recorded` with: the first matching one not served yet, else the last matching one; or
    /// the mismatch against the closest entry.
    private static func choose(
        _ recorded: HTTPArchive.Request, in entries: [HTTPArchive.Entry], matching: ReplayMatching,
        served: inout [Int: Int]
    ) -> Result<HTTPArchive.Entry, ReplayMismatch> {
        var matches: [Int] = []
        var closest: (index: Int, differences: [String], score: Int)?
        for (index, entry) in entries.enumerated() {
            let differences = matching.differences(recorded: entry.request, sent: recorded)
            if differences.isEmpty {
                matches.append(index)
                continue
            }
            let score = differences.count + (entry.request.method == recorded.method ? 0 : 100)
            if closest.map({ score < $0.score }) ?? true { closest = (index, differences, score) }
        }
        guard let index = matches.first(where: { served[$0, default: 0] == 0 }) ?? matches.last else {
            return .failure(
                ReplayMismatch(
                    request: "\(recorded.method) \(recorded.url)", recordedCount: entries.count,
                    closest: closest.map { "\(entries[$0.index].request.method) \(entries[$0.index].request.url)" },
                    differences: closest?.differences ?? []))
        }
        served[index, default: 0] += 1
        return .success(entries[index])
    }

    private func wait(milliseconds: Double, timeout: Duration?) async throws(APIClientError) {
        let delay = Self.duration(milliseconds: milliseconds)
        let timesOut = timeout.map { delay > $0 } ?? false
        do {
            let clock = HTTPCallContext.currentClock
            try await clock.sleep(for: timesOut ? (timeout ?? .zero) : delay)
        } catch {
            throw .cancelled
        }
        if Task.isCancelled { throw .cancelled }
        if timesOut { throw .timeout }
    }

    // MARK: Record

    private func record(
        _ request: HTTPRequest, recorded: HTTPArchive.Request
    ) async throws(APIClientError) -> HTTPResponse {
        var request = request
        var sentBody: StreamedBodyTee?
        if let streamed = request.body?.streamed {
            let copy = StreamedBodyTee(limit: options.maximumBodySize, length: streamed.length)
            request = request.withBody(try copy.body(wrapping: streamed, contentType: request.headers[.contentType]))
            sentBody = copy
        }
        let started = Date()
        let start = ContinuousClock.now
        let response = try await transport.send(request)
        let wait = ContinuousClock.now - start
        var sent = recorded
        if let sentBody {
            sent.recordStreamedBody(
                sentBody.capture, contentType: request.headers[.contentType], redactor: options.redactor,
                maximumBodySize: options.maximumBodySize)
        }
        let archived = sent
        let entry: @Sendable (Data?, Int, String?, Duration) -> HTTPArchive.Entry = { body, size, omission, receive in
            HTTPArchive.Entry(
                startedDateTime: HTTPArchive.timestamp(started),
                time: HTTPArchive.milliseconds(wait + receive), request: archived,
                response: HTTPArchive.Response(
                    response, body: body, size: size, omission: omission, redactor: self.options.redactor),
                cache: HTTPArchive.Cache(),
                timings: HTTPArchive.Timings(wait: wait, receive: receive, measured: response.timings))
        }
        if let stream = response.bodyStream {
            return tee(response, stream: stream, headArrived: start + wait, entry: entry)
        }
        var body: Data? = response.body
        var size = response.body.count
        var omission: String?
        if let fileURL = response.bodyFileURL {
            size = HTTPArchive.fileSize(fileURL) ?? 0
            body = size <= options.maximumBodySize ? try? Data(contentsOf: fileURL) : nil
            if body == nil { omission = "body of \(size) bytes in a file, larger than maximumBodySize: not recorded" }
        } else if size > options.maximumBodySize {
            body = nil
            omission = "body of \(size) bytes, larger than maximumBodySize: not recorded"
        }
        do {
            try append(entry(body, size, omission, .zero))
        } catch {
            throw .httpClientError(underlying: error)
        }
        return response
    }

    /// A response whose body stream passes `stream`'s chunks on as they come and records the exchange when it ends.
    private func tee(
        _ response: HTTPResponse, stream: HTTPBodyStream, headArrived: ContinuousClock.Instant,
        entry: @escaping @Sendable (Data?, Int, String?, Duration) -> HTTPArchive.Entry
    ) -> HTTPResponse {
        let (copy, continuation) = HTTPBodyStream.makeStream(
            bufferLimit: stream.bufferLimit, onCancel: { stream.cancel() })
        let limit = options.maximumBodySize
        Task { [self] in
            var collected = Data()
            var size = 0
            var chunks: [HTTPArchive.Chunk] = []
            var omission: String?
            var failure: APIClientError?
            do {
                for try await chunk in stream {
                    size += chunk.count
                    if size <= limit { collected.append(chunk) }
                    if size <= limit {
                        // When the recorder read it, which is when the caller asked for it: a caller that reads
                        // slower than the server sends records its own pace.
                        let arrived = HTTPArchive.milliseconds(ContinuousClock.now - headArrived)
                        chunks.append(HTTPArchive.Chunk(size: chunk.count, time: arrived))
                    }
                    guard await continuation.send(chunk) else {
                        omission = "the reader stopped before the end of the body: not recorded"
                        break
                    }
                }
            } catch {
                failure = (error as? APIClientError) ?? .httpClientError(underlying: error)
                omission = "the body ended with an error: not recorded"
            }
            if omission == nil, size > limit { omission = "body of \(size) bytes, larger than maximumBodySize" }
            let receive = ContinuousClock.now - headArrived
            var recorded = entry(omission == nil ? collected : nil, size, omission, receive)
            if omission == nil { recorded.response.content.chunks = chunks }
            do {
                try append(recorded)
            } catch {
                failure = failure ?? .httpClientError(underlying: error)
            }
            if let failure { continuation.finish(throwing: failure) } else { continuation.finish() }
        }
        return HTTPResponse(
            statusCode: response.statusCode, headers: response.headers, request: response.request, url: response.url,
            bodyStream: copy, timings: response.timings)
    }

    /// Adds `entry` to the archive and rewrites the file atomically, under the lock so writes never interleave
    /// and the last write holds every entry.
    private func append(_ entry: HTTPArchive.Entry) throws(RecordingError) {
        try withArchive { archive, _ throws(RecordingError) in
            archive.log.entries.append(entry)
            let data = try archive.encoded()
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file, options: .atomic)
            } catch {
                throw .writeFailed(reason: "\(file.path): \(error.localizedDescription)")
            }
        }
    }

    // MARK: The archive

    /// Runs `body` on the archive under the lock, loading it first: empty in ``Mode/record``, read from the file
    /// otherwise (in ``Mode/recordIfMissing`` empty when there is no file).
    private func withArchive<T>(
        _ body: (inout HTTPArchive, inout [Int: Int]) throws(RecordingError) -> T
    ) throws(RecordingError) -> T {
        let result: Result<T, RecordingError> = state.withLock { state in
            do throws(RecordingError) {
                if state.archive == nil { state.archive = try load() }
                var archive = state.archive ?? HTTPArchive()
                defer { state.archive = archive }
                return .success(try body(&archive, &state.served))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func load() throws(RecordingError) -> HTTPArchive {
        if mode == .record { return HTTPArchive() }
        guard FileManager.default.fileExists(atPath: file.path) else {
            if mode == .recordIfMissing { return HTTPArchive() }
            throw .missingRecording(file)
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableRecording(file, reason: error.localizedDescription)
        }
        return try HTTPArchive(data: data, from: file)
    }
}

/// The transport behind a replay-only ``RecordingHTTPClient``: never called, and failing if it were.
private struct NoTransport: HTTPClient {
    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        throw .httpClientError(underlying: RecordingError.writeFailed(reason: "a replay-only client has no transport"))
    }
}
