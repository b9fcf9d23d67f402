import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

private typealias Support = StreamingTestSupport

private func data(_ text: String) -> Data { Data(text.utf8) }

private struct Order: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
}

@Suite("HTTPBodyStream", .timeLimit(.minutes(1)))
struct HTTPBodyStreamTests {
    // MARK: Producer and consumer

    @Test("Chunks arrive in the order they were yielded, then nil, and nil again")
    func chunksInOrderThenNil() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        #expect(continuation.yield(data("a")) == .enqueued)
        #expect(continuation.yield(data("bb")) == .enqueued)
        #expect(continuation.yield(data("ccc")) == .enqueued)
        continuation.finish()
        var iterator = stream.makeAsyncIterator()
        var chunks: [Data] = []
        while let chunk = try await iterator.next() { chunks.append(chunk) }
        #expect(chunks == [data("a"), data("bb"), data("ccc")])
        #expect(try await iterator.next() == nil)
    }

    @Test("Chunks yielded while the consumer is waiting arrive in order")
    func chunksWhileConsumerWaits() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        let consumer = Task { await Support.readAll(stream) }
        for index in 0..<50 {
            _ = await continuation.send(data("\(index),"))
            await Task.yield()
        }
        continuation.finish()
        let (chunks, error) = await awaitingCancellably(consumer)
        #expect(error == nil)
        #expect(chunks == (0..<50).map { data("\($0),") })
    }

    @Test("yield answers .pause once the buffer reaches bufferLimit, and onDemand comes when drained to a quarter")
    func pauseAndDemand() async throws {
        let demand = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(bufferLimit: 8, onDemand: { demand.increment() })
        #expect(stream.bufferLimit == 8)
        let results = (0..<4).map { _ in continuation.yield(Data(count: 2)) }
        #expect(results == [.enqueued, .enqueued, .enqueued, .pause])
        #expect(continuation.bufferedBytes == 8)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()  // 6 left
        #expect(demand.value == 0)
        _ = try await iterator.next()  // 4 left
        #expect(demand.value == 0)
        _ = try await iterator.next()  // 2 left: a quarter of 8
        #expect(demand.value == 1)
        _ = try await iterator.next()  // 0 left; no second call without a second pause
        #expect(demand.value == 1)
        #expect(continuation.bufferedBytes == 0)
    }

    @Test("A second pause after a drain gives a second onDemand")
    func secondPauseSecondDemand() async throws {
        let demand = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(bufferLimit: 4, onDemand: { demand.increment() })
        var iterator = stream.makeAsyncIterator()
        #expect(continuation.yield(Data(count: 4)) == .pause)
        _ = try await iterator.next()
        #expect(demand.value == 1)
        #expect(continuation.yield(Data(count: 5)) == .pause)
        _ = try await iterator.next()
        #expect(demand.value == 2)
    }

    /// Starts a task that sends 4 bytes into `continuation` (a stream with a 4-byte buffer), and waits until they
    /// are buffered: the task now waits for the consumer. The flag is set when `send` returns.
    private static func sendFilling(
        _ continuation: HTTPBodyStream.Continuation
    ) async throws -> (Task<Bool, Never>, Support.Flag) {
        let returned = Support.Flag()
        let producer = Task {
            let accepted = await continuation.send(Data(count: 4))
            returned.set()
            return accepted
        }
        try #require(await eventually { continuation.bufferedBytes == 4 })
        return (producer, returned)
    }

    @Test("send waits while the buffer is full and returns true once the consumer reads")
    func sendWaitsWhileFull() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream(bufferLimit: 4)
        let (producer, returned) = try await Self.sendFilling(continuation)
        // The chunk is in, the buffer is full: send cannot return until the consumer reads.
        for _ in 0..<100 { await Task.yield() }
        #expect(!returned.isSet)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == Data(count: 4))
        #expect(await awaitingCancellably(producer) == true)
    }

    @Test("send returns false once the consumer is gone, both while waiting and afterwards")
    func sendFalseWhenConsumerGone() async throws {
        let cancels = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(bufferLimit: 4, onCancel: { cancels.increment() })
        let producer = Task { await continuation.send(Data(count: 4)) }
        try #require(await eventually { continuation.bufferedBytes == 4 })
        stream.cancel()
        #expect(await awaitingCancellably(producer) == false)
        #expect(await continuation.send(data("more")) == false)
        #expect(continuation.yield(data("more")) == .dropped)
        #expect(continuation.isCancelled)
        #expect(cancels.value == 1)
    }

    @Test("a producer cancelled while send waits gets false at once; the chunk stays buffered for the consumer")
    func sendFalseWhenProducerCancelled() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream(bufferLimit: 4)
        let (producer, returned) = try await Self.sendFilling(continuation)
        producer.cancel()
        // Nothing reads: only the cancellation can end the wait.
        let ended = await eventually { returned.isSet }
        #expect(ended, "send kept waiting after its task was cancelled")
        guard ended else {
            stream.cancel()  // lets the producer go, so the test ends
            return
        }
        #expect(await producer.value == false)
        #expect(!continuation.isCancelled)
        continuation.finish()
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == Data(count: 4))
        #expect(try await iterator.next() == nil)
    }

    @Test("cancel() calls onCancel exactly once, however often it is called")
    func cancelCallsOnCancelOnce() async throws {
        let cancels = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(onCancel: { cancels.increment() })
        #expect(!continuation.isCancelled)
        stream.cancel()
        stream.cancel()
        #expect(cancels.value == 1)
        #expect(continuation.isCancelled)
        #expect(continuation.yield(data("late")) == .dropped)
        var iterator = stream.makeAsyncIterator()
        _ = try? await iterator.next()
        #expect(cancels.value == 1)
    }

    @Test("cancel() after the producer finished does not call onCancel")
    func cancelAfterFinishDoesNotCallOnCancel() async throws {
        let cancels = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(onCancel: { cancels.increment() })
        continuation.yield(data("a"))
        continuation.finish()
        stream.cancel()
        #expect(cancels.value == 0)
    }

    @Test("Releasing the stream calls onCancel")
    func releasingCallsOnCancel() async throws {
        let cancels = Counter()
        let continuation = makeAndReleaseStream(onCancel: { cancels.increment() })
        #expect(cancels.value == 1)
        #expect(continuation.isCancelled)
        #expect(continuation.yield(data("late")) == .dropped)
    }

    private func makeAndReleaseStream(onCancel: @escaping @Sendable () -> Void) -> HTTPBodyStream.Continuation {
        let (_, continuation) = HTTPBodyStream.makeStream(onCancel: onCancel)
        return continuation
    }

    @Test("A live iterator keeps the stream; releasing the iterator calls onCancel")
    func iteratorKeepsStreamAlive() async throws {
        let cancels = Counter()
        var continuation: HTTPBodyStream.Continuation?
        var iterator: HTTPBodyStream.AsyncIterator? = {
            let (stream, producer) = HTTPBodyStream.makeStream(onCancel: { cancels.increment() })
            continuation = producer
            return stream.makeAsyncIterator()
        }()
        let producer = try #require(continuation)
        producer.yield(data("a"))
        #expect(try await iterator?.next() == data("a"))
        #expect(cancels.value == 0)
        #expect(producer.yield(data("b")) == .enqueued)
        iterator = nil
        #expect(cancels.value == 1)
        #expect(producer.isCancelled)
    }

    @Test("Cancelling the consuming task ends next() with .cancelled and calls onCancel")
    func cancellingConsumerTask() async throws {
        let cancels = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(onCancel: { cancels.increment() })
        let (started, signal) = AsyncStream<Void>.makeStream()
        continuation.yield(data("first"))
        let consumer = Task { () -> (Data?, APIClientError?) in
            var iterator = stream.makeAsyncIterator()
            let first = try? await iterator.next()
            signal.yield()
            do {
                let second = try await iterator.next()
                return (first ?? nil, second == nil ? nil : .invalidRequest(reason: "got a chunk"))
            } catch {
                return (first ?? nil, error as? APIClientError)
            }
        }
        for await _ in started { break }
        consumer.cancel()
        let (first, error) = await awaitingCancellably(consumer)
        #expect(first == data("first"))
        #expect(Support.isCancelled(error), "got \(String(describing: error))")
        #expect(cancels.value == 1)
        #expect(continuation.isCancelled)
        #expect(continuation.yield(data("late")) == .dropped)
    }

    @Test("finish(throwing:) delivers the buffered chunks, then the error, then nil")
    func finishThrowing() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        continuation.yield(data("a"))
        continuation.yield(data("b"))
        continuation.finish(throwing: .networkError(APIClientError.NetworkFailure(kind: .connectionLost)))
        #expect(continuation.yield(data("after")) == .dropped)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == data("a"))
        #expect(try await iterator.next() == data("b"))
        var failure: APIClientError?
        do {
            _ = try await iterator.next()
        } catch {
            failure = error
        }
        #expect(Support.isNetworkError(failure, kind: .connectionLost), "got \(String(describing: failure))")
        #expect(try await iterator.next() == nil)
    }

    @Test("finish(throwing:) wakes a consumer that is waiting")
    func finishThrowingWakesWaitingConsumer() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        let consumer = Task { await Support.readAll(stream) }
        continuation.finish(throwing: .timeout)
        let (chunks, error) = await awaitingCancellably(consumer)
        #expect(chunks.isEmpty)
        #expect(Support.isTimeout(error))
    }

    // MARK: collect

    @Test("collect(upTo:) joins every chunk, up to exactly the limit")
    func collectJoins() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        continuation.yield(data("ab"))
        continuation.yield(data("cd"))
        continuation.finish()
        #expect(try await stream.collect(upTo: 4) == data("abcd"))
        #expect(try await HTTPBodyStream(chunks: [data("x"), data("yz")]).collect() == data("xyz"))
        #expect(try await HTTPBodyStream(data: Data()).collect() == Data())
    }

    @Test("collect(upTo:) over the limit fails with networkError .responseTooLarge and ends the request")
    func collectLimit() async throws {
        let cancels = Counter()
        let (stream, continuation) = HTTPBodyStream.makeStream(onCancel: { cancels.increment() })
        continuation.yield(data("ab"))
        continuation.yield(data("cd"))
        var failure: APIClientError?
        do {
            _ = try await stream.collect(upTo: 3)
        } catch {
            failure = error
        }
        #expect(Support.isNetworkError(failure, kind: .responseTooLarge), "got \(String(describing: failure))")
        #expect(cancels.value == 1)
        #expect(continuation.isCancelled)
    }

    // MARK: lines

    @Test("lines splits on LF, CRLF and CR, keeps empty lines and delivers a last line without newline")
    func linesLineEnds() async throws {
        let stream = HTTPBodyStream(chunks: [data("a\nb\r\n\nc\rd\n"), data("last")])
        let (lines, error) = await Support.readAll(stream.lines)
        #expect(error == nil)
        #expect(lines == ["a", "b", "", "c", "d", "last"])
    }

    @Test("lines joins a line split across chunks, and a CRLF split across chunks is one line end")
    func linesAcrossChunks() async throws {
        let stream = HTTPBodyStream(chunks: [data("hel"), data("lo wo"), data("rld\r"), data("\nnext"), data("\n")])
        let (lines, error) = await Support.readAll(stream.lines)
        #expect(error == nil)
        #expect(lines == ["hello world", "next"])
    }

    @Test("lines decodes UTF-8 split across chunks and turns invalid bytes into U+FFFD")
    func linesUTF8() async throws {
        let emoji = Array("🌍".utf8)
        let stream = HTTPBodyStream(chunks: [
            Data(Array("a".utf8) + emoji[..<2]), Data(Array(emoji[2...]) + [0x0A, 0xFF, 0x0A]),
        ])
        let (lines, _) = await Support.readAll(stream.lines)
        #expect(lines == ["a🌍", "\u{FFFD}"])
    }

    @Test("A body ending with a newline has no extra empty last line; an empty body has no lines")
    func linesNoTrailingEmptyLine() async throws {
        #expect(await Support.readAll(HTTPBodyStream(chunks: [data("a\n")]).lines).elements == ["a"])
        #expect(await Support.readAll(HTTPBodyStream(chunks: [data("a\r")]).lines).elements == ["a"])
        #expect(await Support.readAll(HTTPBodyStream(data: Data()).lines).elements.isEmpty)
    }

    @Test(
        "A line longer than maxLineBytes ends lines with .parsingError: split across chunks, inside one, or last",
        arguments: [
            ["ok\n0123", "456789\n"],  // split across chunks
            ["ok\n", "0123456789\nafter\n"],  // inside one chunk
            ["ok\n", "0123456789"],  // an unterminated last line
        ])
    func lineTooLong(chunks: [String]) async throws {
        let stream = HTTPBodyStream(chunks: chunks.map(data))
        let (lines, error) = await Support.readAll(stream.lines(maxLineBytes: 8))
        #expect(lines == ["ok"])
        #expect(Support.isParsingError(error), "got \(String(describing: error))")
    }

    @Test("Lines completed before an over-long line in the same chunk are delivered before the .parsingError")
    func linesBeforeTooLongLineInSameChunk() async throws {
        // "ok" and "fine" are complete lines; the over-long one starts after them in the same chunk.
        let stream = HTTPBodyStream(chunks: [data("ok\nfine\n0123456789")])
        let (lines, error) = await Support.readAll(stream.lines(maxLineBytes: 8))
        #expect(lines == ["ok", "fine"])
        #expect(Support.isParsingError(error), "got \(String(describing: error))")
    }

    @Test("After an over-long line lines is over: the next call returns nil")
    func linesTerminalAfterError() async throws {
        let stream = HTTPBodyStream(chunks: [data("ok\n0123"), data("456789"), data("\nlater\n")])
        var iterator = stream.lines(maxLineBytes: 8).makeAsyncIterator()
        #expect(try await iterator.next() == "ok")
        var failure: APIClientError?
        do {
            _ = try await iterator.next()
        } catch {
            failure = error
        }
        #expect(Support.isParsingError(failure), "got \(String(describing: failure))")
        var after: [String] = []
        while after.count < 5, let line = try? await iterator.next() { after.append(line) }
        #expect(after.isEmpty, "lines kept going after its error: \(after)")
    }

    @Test("A line of exactly maxLineBytes is accepted, in one chunk or split")
    func lineAtLimit() async throws {
        let whole = HTTPBodyStream(chunks: [data("01234567\n")])
        #expect(await Support.readAll(whole.lines(maxLineBytes: 8)).elements == ["01234567"])
        let split = HTTPBodyStream(chunks: [data("0123"), data("4567\n")])
        #expect(await Support.readAll(split.lines(maxLineBytes: 8)).elements == ["01234567"])
    }

    // MARK: jsonLines

    static let ndjson = Array(
        "{\"id\":1,\"name\":\"é🌍\"}\n\n{\"id\":2,\"name\":\"b\"}\r\n  \t \r\n{\"id\":3,\"name\":\"c\"}".utf8)
    private static let orders = [Order(id: 1, name: "é🌍"), Order(id: 2, name: "b"), Order(id: 3, name: "c")]

    @Test("jsonLines decodes NDJSON split into small chunks, skipping blank lines", arguments: [1, 2, 3, 5, 7, 64])
    func jsonLinesChunked(chunkSize: Int) async throws {
        let bytes = Self.ndjson
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map {
            Data(bytes[$0..<min($0 + chunkSize, bytes.count)])
        }
        let (values, error) = await Support.readAll(HTTPBodyStream(chunks: chunks).jsonLines(decoding: Order.self))
        #expect(error == nil)
        #expect(values == Self.orders)
    }

    @Test("jsonLines decodes the same values when the body is split in two at every byte offset")
    func jsonLinesEverySplit() async throws {
        let bytes = Self.ndjson
        for offset in 1..<bytes.count {
            let stream = HTTPBodyStream(chunks: [Data(bytes[..<offset]), Data(bytes[offset...])])
            let (values, error) = await Support.readAll(stream.jsonLines(decoding: Order.self))
            #expect(error == nil, "split at \(offset)")
            #expect(values == Self.orders, "split at \(offset)")
        }
    }

    @Test("jsonLines over a streamed response decodes as the body arrives")
    func jsonLinesOnResponse() async throws {
        let (stream, continuation) = HTTPBodyStream.makeStream()
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com", path: "/orders")
        let response = HTTPStreamedResponse(head: HTTPResponse(statusCode: 200, request: request), body: stream)
        var iterator = response.jsonLines(decoding: Order.self).makeAsyncIterator()
        continuation.yield(data("{\"id\":1,\"na"))
        continuation.yield(data("me\":\"é🌍\"}\n{\"id\":2,"))
        #expect(try await iterator.next() == Order(id: 1, name: "é🌍"))
        continuation.yield(data("\"name\":\"b\"}\n"))
        continuation.finish()
        #expect(try await iterator.next() == Order(id: 2, name: "b"))
        #expect(try await iterator.next() == nil)
    }

    @Test("A line that does not decode ends jsonLines with .parsingError carrying that line")
    func jsonLinesBadLine() async throws {
        let stream = HTTPBodyStream(chunks: [
            data("{\"id\":1,\"name\":\"a\"}\n{\"id\":\"two\","), data("\"name\":\"b\"}\n{\"id\":3,\"name\":\"c\"}\n"),
        ])
        let (values, error) = await Support.readAll(stream.jsonLines(decoding: Order.self))
        #expect(values == [Order(id: 1, name: "a")])
        guard case .parsingError(let body, _) = error else {
            Issue.record("expected parsingError, got \(String(describing: error))")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "{\"id\":\"two\",\"name\":\"b\"}")
    }

    @Test("After a bad line jsonLines is over: the next call returns nil")
    func jsonLinesTerminalAfterError() async throws {
        let stream = HTTPBodyStream(chunks: [data("{\"id\":1,\"name\":\"a\"}\nnot json\n{\"id\":3,\"name\":\"c\"}\n")])
        var iterator = stream.jsonLines(decoding: Order.self).makeAsyncIterator()
        #expect(try await iterator.next() == Order(id: 1, name: "a"))
        var failure: APIClientError?
        do {
            _ = try await iterator.next()
        } catch {
            failure = error
        }
        #expect(Support.isParsingError(failure), "got \(String(describing: failure))")
        let after = try? await iterator.next()
        #expect(after == nil, "jsonLines kept going after its error: \(String(describing: after))")
    }
}
