import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// What reading a streamed body gave: the lines read, and the error that ended it early, if any.
private struct ReadLines: Sendable {
    var lines: [String] = []
    var error: APIClientError?
}

extension ConformanceContext {
    /// The streamed response to `path` of `apiClient`, whose head must arrive within `limit` (scaled).
    func streamed(
        _ apiClient: BothamAPIClient, _ path: String, within limit: Duration = .seconds(5)
    ) async throws(ConformanceFailure) -> (HTTPStreamedResponse, Duration) {
        let outcome = await bounded(within: limit) {
            () async -> (Result<HTTPStreamedResponse, APIClientError>, Duration) in
            let start = ContinuousClock.now
            do throws(APIClientError) {
                let response = try await apiClient.stream(.get, path)
                return (.success(response), ContinuousClock.now - start)
            } catch {
                return (.failure(error), ContinuousClock.now - start)
            }
        }
        let (result, duration) = try require(outcome, "the head of \(path) had not arrived after \(scaled(limit))")
        switch result {
        case .success(let response): return (response, duration)
        case .failure(let error): throw ConformanceFailure(reason: "streaming \(path) failed: \(error)")
        }
    }

    /// Every line of `response` until its end or its error, within `limit` (scaled).
    fileprivate func readLines(
        _ response: HTTPStreamedResponse, within limit: Duration = .seconds(5)
    ) async throws(ConformanceFailure) -> ReadLines {
        let outcome = await bounded(within: limit) { () async -> ReadLines in
            var read = ReadLines()
            do throws(APIClientError) {
                for try await line in response.lines { read.lines.append(line) }
            } catch {
                read.error = error
            }
            return read
        }
        return try require(outcome, "the streamed body had not ended after \(scaled(limit))")
    }
}

extension ConformanceCheck {
    /// A streamed response's head arrives before its body, and the parts come in order as they are sent.
    package static let streamHeadBeforeBody = ConformanceCheck(
        .streaming, "headBeforeBody", "a streamed response's head arrives before its body, and parts come in order"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withHeader("Content-Type", "application/x-ndjson").streaming([
                .init(Data("one\n".utf8)), .init(Data("two\n".utf8), after: .seconds(1)),
                .init(Data("three\n".utf8), after: .milliseconds(50)),
            ]))
        let apiClient = context.apiClient(server)

        let (response, headDelay) = try await context.streamed(apiClient, "/feed")

        try expect(response.head.statusCode == 200, "status \(response.head.statusCode)")
        try expect(response.head.headers[.contentType] == "application/x-ndjson", "Content-Type lost")
        let latest = context.latest(.milliseconds(300), for: headDelay)
        try expect(
            headDelay < latest, "the head took \(headDelay): it waited for the body (the second part is 1 s late)")
        let read = try await context.readLines(response)
        try expect(read.error == nil, "the body ended with \(read.error.map { "\($0)" } ?? "")")
        try expect(read.lines == ["one", "two", "three"], "the parts came as \(read.lines)")
    }

    /// A large streamed body arrives whole and in order.
    package static let streamLargeBody = ConformanceCheck(
        .streaming, "largeBody", "a 4 MiB streamed body arrives whole and in order"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let body = conformancePattern(count: 4 << 20)
        server.enqueue(MockResponse().withBody(body))
        let apiClient = context.apiClient(server)

        let (response, _) = try await context.streamed(apiClient, "/big")
        let outcome = await context.bounded(within: .seconds(10)) {
            () async -> Result<Data, APIClientError> in
            var received = Data()
            do throws(APIClientError) {
                for try await chunk in response.body { received.append(chunk) }
            } catch {
                return .failure(error)
            }
            return .success(received)
        }
        let received = try require(outcome, "the 4 MiB body had not ended after \(context.scaled(.seconds(10)))")
        switch received {
        case .success(let data):
            try expect(data == body, "\(body.count) bytes streamed arrived as \(data.count) bytes, not the same")
        case .failure(let error):
            throw ConformanceFailure(reason: "the 4 MiB stream failed: \(error)")
        }
    }

    /// A stream whose connection drops mid-body delivers what came and then fails with `connectionLost`.
    package static let streamDropMidStream = ConformanceCheck(
        .streaming, "dropMidStream",
        "a stream whose connection drops mid-body gives the parts that came, then networkError(connectionLost)"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().streaming(
                [.init(Data("one\n".utf8)), .init(Data("two\n".utf8), after: .milliseconds(50))], end: .disconnect))
        let apiClient = context.apiClient(server)

        let (response, _) = try await context.streamed(apiClient, "/feed")
        let read = try await context.readLines(response)

        try expect(read.lines == ["one", "two"], "the parts before the drop came as \(read.lines)")
        guard case .networkError(let failure)? = read.error, failure.kind == .connectionLost else {
            throw ConformanceFailure(
                reason: "the dropped stream ended with \(read.error.map { "\($0)" } ?? "no error"), not connectionLost")
        }
    }

    /// Between chunks, a streamed body has the idle timeout: a body that stalls ends with `.timeout`.
    package static let streamIdleTimeout = ConformanceCheck(
        .streaming, "idleTimeout", "a streamed body that stalls past idleTimeout ends with .timeout after what came"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().streaming([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: .seconds(10))]))
        let limit = Duration.milliseconds(400)
        let apiClient = context.apiClient(server, limits: TransportLimits(idleTimeout: limit))

        let (response, _) = try await context.streamed(apiClient, "/feed")
        let start = ContinuousClock.now
        let read = try await context.readLines(response, within: limit + timeoutSlack + .milliseconds(500))
        let duration = ContinuousClock.now - start

        try expect(read.lines == ["first"], "before the stall, the lines came as \(read.lines)")
        guard case .timeout? = read.error else {
            throw ConformanceFailure(
                reason: "the stalled stream ended with \(read.error.map { "\($0)" } ?? "no error"), not .timeout")
        }
        let latest = context.latest(limit + timeoutSlack, for: duration)
        try expect(duration < latest, "the stalled stream timed out after \(duration), later than \(latest)")
    }

    /// Leaving the loop early ends the request, and the next call works.
    package static let streamEarlyExit = ConformanceCheck(
        .streaming, "earlyExit", "leaving a stream early ends its request, and the next call works"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let parts = (0..<50).map { StubChunk(Data("event \($0)\n".utf8), after: .milliseconds(20)) }
        server.enqueue(MockResponse().streaming(parts))
        server.enqueue(MockResponse().withBody("next"))
        let apiClient = context.apiClient(server)

        let (response, _) = try await context.streamed(apiClient, "/feed")
        let seen = await context.bounded(within: .seconds(5)) { () async -> Int in
            var seen = 0
            do {
                for try await _ in response.lines {
                    seen += 1
                    if seen == 2 { break }
                }
            } catch {}
            return seen
        }
        try expect(seen == 2, "read \(seen.map(String.init) ?? "no") lines before leaving, not 2")
        let next = try await context.response("the next GET") { await apiClient.GET("/after") }
        try expect(next.body == Data("next".utf8), "the next call's body came back as \(next.body.count) bytes")
    }

    /// Cancelling the reading task ends the stream with `.cancelled` at once.
    package static let streamCancel = ConformanceCheck(
        .streaming, "cancelReader", "cancelling the task reading a stream ends it with .cancelled at once"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().streaming([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: .seconds(20))]))
        let apiClient = context.apiClient(server)

        let (response, _) = try await context.streamed(apiClient, "/feed")
        let (firstLine, firstLineSeen) = AsyncStream<Void>.makeStream()
        let reader = Task { () async -> ReadLines in
            var read = ReadLines()
            do throws(APIClientError) {
                for try await line in response.lines {
                    read.lines.append(line)
                    firstLineSeen.yield()
                }
            } catch {
                read.error = error
            }
            return read
        }
        defer { reader.cancel() }
        let started = await context.bounded(within: .seconds(5)) { () async -> Bool in
            for await _ in firstLine { return true }
            return false
        }
        try expect(started == true, "the first part never arrived")
        reader.cancel()
        let ended = await context.bounded(within: cancellationDeadline) { await reader.value }
        let read = try require(
            ended, "the cancelled reader had not ended after \(context.scaled(cancellationDeadline))")
        guard case .cancelled? = read.error else {
            throw ConformanceFailure(
                reason: "the cancelled reader ended with \(read.error.map { "\($0)" } ?? "no error")")
        }
    }
}
