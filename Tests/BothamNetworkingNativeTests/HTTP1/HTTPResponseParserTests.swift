import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("HTTPResponseParser", .timeLimit(.minutes(1)))
struct HTTPResponseParserTests {
    private static let limits = HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 1 << 16)

    private static let samples: [String] = [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10;x=y\r\n0123456789abcdef\r\n0\r\nT: 1\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
        "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n",
        "HTTP/1.1 200 OK\nContent-Length: 3\n\nabc",
    ]

    private static let expectedBodies = ["hello", "abc0123456789abcdef", "ok", "", "abc"]

    /// Feeds `wire` in the given piece sizes and returns the response and how many bytes were left over.
    private func parse(_ wire: [UInt8], pieces: [Int], method: String = "GET") throws -> (ParsedResponse, Int)? {
        var parser = HTTPResponseParser(method: method, limits: Self.limits)
        var offset = 0
        var pieceIndex = 0
        while offset < wire.count {
            let size = min(max(1, pieces[pieceIndex % pieces.count]), wire.count - offset)
            pieceIndex += 1
            let used = try wire[offset..<offset + size].withUnsafeBytes { try parser.feed($0) }
            if let used { return (parser.response, wire.count - offset - used) }
            offset += size
        }
        return nil
    }

    @Test("Each sample parses the same fed byte by byte, whole, and in random splits")
    func splits() throws {
        var generator = SplitMix64(seed: 0x5EED_5917)
        for (sample, body) in zip(Self.samples, Self.expectedBodies) {
            let wire = Array(sample.utf8)
            var splits: [[Int]] = [[1], [wire.count]]
            for _ in 0..<20 { splits.append((0..<8).map { _ in Int.random(in: 1...12, using: &generator) }) }
            for pieces in splits {
                let result = try #require(try parse(wire, pieces: pieces), "\(sample.debugDescription) \(pieces)")
                #expect(String(decoding: result.0.body, as: UTF8.self) == body)
                #expect(result.1 == 0)
                #expect(result.0.keepAlive)
            }
        }
    }

    @Test(
        "A large body of announced length is written into pooled memory, intact in any split, and its memory returns to the pool when dropped"
    )
    func pooledBody() throws {
        let length = 1 << 20
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let wire = Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8) + body
        for pieces in [[wire.count], [1, 7, 4096, 65_536], [100_000, 3]] {
            var parser = HTTPResponseParser(
                method: "GET", limits: HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 8 << 20), pool: pool)
            var offset = 0
            var pieceIndex = 0
            var response: ParsedResponse?
            while offset < wire.count, response == nil {
                let size = min(pieces[pieceIndex % pieces.count], wire.count - offset)
                pieceIndex += 1
                if try wire[offset..<offset + size].withUnsafeBytes({ try parser.feed($0) }) != nil {
                    response = parser.response
                }
                offset += size
            }
            var parsed = try #require(response)
            response = nil
            #expect(parsed.body == Data(body))
            #expect(pool.idleBytes == 0)
            parser = HTTPResponseParser(method: "GET", limits: Self.limits)
            parsed.body = Data()
            #expect(pool.idleBytes == length, "\(pieces)")
        }
    }

    @Test(
        "A pooled body offers its unwritten part for reads in place, all but the last reserve, which goes through feed")
    func directBodyTarget() throws {
        let length = 1 << 20
        let reserve = 64 << 10
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var parser = HTTPResponseParser(
            method: "GET", limits: HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 8 << 20), pool: pool)
        #expect(parser.directBodyTarget(reserve: reserve) == nil)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8) + body[0..<1000]
        #expect(try head.withUnsafeBytes { try parser.feed($0) } == nil)

        var written = 1000
        while let target = parser.directBodyTarget(reserve: reserve) {
            #expect(target.count == length - written - reserve)
            let count = min(target.count, 200_000)
            body[written..<written + count].withUnsafeBytes { target.copyMemory(from: $0) }
            parser.didReceiveBodyDirectly(count)
            written += count
        }
        #expect(written == length - reserve)
        // The tail and one byte too many: the parser takes the body and leaves the extra byte.
        let tail = Array(body[written...]) + [0x41]
        let used = try tail.withUnsafeBytes { try parser.feed($0) }
        #expect(used == reserve)
        #expect(parser.response.body == Data(body))
    }

    @Test("A pooled body read in place ends exactly as the same bytes fed, however the reads split it")
    func readInPlaceMatchesFeeding() {
        let length = BodyBufferPool.minimumBytes + 12_345
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n".utf8)
        let limit = 1 << 20
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)  // pools on every platform, unlike the shared one
        var generator = SplitMix64(seed: 19)
        // Whole, with bytes of a next response after it, and cut short (the stream ends mid-body).
        let inputs = [head + body, head + body + Array("HTTP/1.1 200".utf8), head + body.dropLast(5_000)]
        for (index, bytes) in inputs.enumerated() {
            let fed = HTTPResponseParserReplay.parse(bytes, pieceSize: 65_536, maxBodyBytes: limit)
            for _ in 0..<6 {
                let pieceSize = Int(generator.next() % 150_000) + 1
                let reserve = Int(generator.next() % 8_192) + 1
                let (readInPlace, bytesInPlace) = HTTPResponseParserReplay.parseReadingInPlace(
                    bytes, pieceSize: pieceSize, maxBodyBytes: limit, reserve: reserve, pool: pool)
                let split = "input \(index), pieces of \(pieceSize), reserve \(reserve)"
                #expect(readInPlace == fed, "\(split)")
                // Most of the body went in place; the head, the first piece's bytes and the reserve did not.
                #expect(bytesInPlace > length - pieceSize - 2 * reserve - 16_000, "\(split): \(bytesInPlace) in place")
            }
            if index < 2 {
                guard case .response(let summary, let used) = fed else {
                    Issue.record("input \(index): \(fed)")
                    continue
                }
                #expect(used == head.count + length)
                #expect(summary.body == body)
            } else {
                #expect(fed == .failed(.closedByPeer))
            }
        }
    }

    @Test("HEAD, 204 and 304 responses announcing a large length take no pooled memory")
    func bodilessResponsesTakeNoPooledMemory() throws {
        let limits = HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 8 << 20)
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        let cases = [("HEAD", 200), ("GET", 204), ("GET", 304)]
        for (method, status) in cases {
            var parser = HTTPResponseParser(method: method, limits: limits, pool: pool)
            let wire = Array("HTTP/1.1 \(status) X\r\nContent-Length: 1048576\r\n\r\n".utf8)
            #expect(try wire.withUnsafeBytes { try parser.feed($0) } == wire.count)
            #expect(parser.response.body.isEmpty)
        }
        #expect(pool.idleBytes == 0)
    }

    @Test("An unfinished pooled body shows only the bytes written so far")
    func unfinishedPooledBody() throws {
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        var parser = HTTPResponseParser(
            method: "GET", limits: HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 8 << 20), pool: pool)
        let wire = Array("HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\nabc".utf8)
        #expect(try wire.withUnsafeBytes { try parser.feed($0) } == nil)
        #expect(parser.response.body == Data("abc".utf8))
    }

    @Test("Small bodies, streamed bodies and bodies without Content-Length are never read in place")
    func noDirectBodyTarget() throws {
        let limits = HTTPParserLimits(maxHeadBytes: 4096, maxBodyBytes: 8 << 20)
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        let heads = [
            "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n",
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
        ]
        for head in heads {
            var parser = HTTPResponseParser(method: "GET", limits: limits, pool: pool)
            _ = try Array(head.utf8).withUnsafeBytes { try parser.feed($0) }
            #expect(parser.directBodyTarget(reserve: 1024) == nil, "\(head.debugDescription)")
        }
        var streamed = HTTPResponseParser(method: "GET", limits: limits, bodySink: { _ in }, pool: pool)
        _ = try Array("HTTP/1.1 200 OK\r\nContent-Length: 1048576\r\n\r\n".utf8).withUnsafeBytes {
            try streamed.feed($0)
        }
        #expect(streamed.directBodyTarget(reserve: 1024) == nil)
    }

    @Test("Headers keep their order and repeats; values are trimmed")
    func headers() throws {
        let wire = Array("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie:  b=2 \r\nContent-Length: 0\r\n\r\n".utf8)
        let response = try #require(try parse(wire, pieces: [7])).0
        #expect(response.headers.values(for: .setCookie) == ["a=1", "b=2"])
    }

    @Test("HEAD responses end after the head; extra bytes are reported as left over")
    func headAndLeftovers() throws {
        let wire = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nEXTRA".utf8)
        let result = try #require(try parse(wire, pieces: [wire.count], method: "HEAD"))
        #expect(result.0.body.isEmpty)
        #expect(result.1 == 5)
    }

    @Test("Keep-alive follows the version and Connection")
    func keepAlive() throws {
        let cases: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n", false),
        ]
        for (wire, expected) in cases {
            #expect(try #require(try parse(Array(wire.utf8), pieces: [3])).0.keepAlive == expected, "\(wire)")
        }
    }

    @Test("A close-delimited body completes at the end of the stream; a cut-short body does not")
    func endOfStream() throws {
        var parser = HTTPResponseParser(method: "GET", limits: Self.limits)
        let used = try Array("HTTP/1.1 200 OK\r\n\r\nall of it".utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(used == nil)
        #expect(try parser.finishAtEndOfStream())
        #expect(parser.response.body == Data("all of it".utf8))

        var short = HTTPResponseParser(method: "GET", limits: Self.limits)
        _ = try Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc".utf8).withUnsafeBytes { try short.feed($0) }
        #expect(throws: NativeTransportError.self) { try short.finishAtEndOfStream() }

        var empty = HTTPResponseParser(method: "GET", limits: Self.limits)
        #expect(try empty.finishAtEndOfStream() == false)
    }

    @Test("Random garbage never traps: it parses within bounds, is cut short, or throws a parser error")
    func fuzz() {
        var generator = SplitMix64(seed: 0xF022_0001)
        let alphabet = Array(
            "HTTP/1.1 200 OK\r\n:;Content-Length:Transfer-Encoding: chunked0123456789abcdefxX -\t".utf8)
        // Whole pieces of syntax, so that some inputs frame a complete response and reach the parsed outcome.
        let fragments = [
            "\r\n", "\r\n\r\n", "Content-Length: 3", "Content-Length: 0", "Transfer-Encoding: chunked", "X-A: b",
            "3\r\nabc\r\n", "0\r\n\r\n", "abc",
        ].map { Array($0.utf8) }
        var (parsed, cutShort, threw) = (0, 0, 0)
        for round in 0..<500 {
            var parser = HTTPResponseParser(method: "GET", limits: Self.limits)
            var bytes = Array("HTTP/1.1 200 OK\r\n".utf8)
            let count = Int.random(in: 0...40, using: &generator)
            for _ in 0..<count {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.append(UInt8.random(in: 0...255, using: &generator))
                case 1: bytes.append(alphabet.randomElement(using: &generator) ?? 0)
                default: bytes += fragments.randomElement(using: &generator) ?? []
                }
            }
            let input = "round \(round): \(bytes)"
            let fed = bytes.withUnsafeBytes { piece in
                Result { () throws(NativeTransportError) -> Int? in try parser.feed(piece) }
            }
            switch fed {
            case .success(let used?):
                parsed += 1
                #expect(used <= bytes.count, "\(input)")
                expectWithinBounds(parser.response, input)
            case .success(nil):
                // The bytes ended mid-response: a close-delimited body is complete, anything else is cut short.
                let finished = Result { () throws(NativeTransportError) -> Bool in try parser.finishAtEndOfStream() }
                switch finished {
                case .success(true):
                    parsed += 1
                    expectWithinBounds(parser.response, input)
                case .success(false):
                    Issue.record("a started response ended as no response: \(input)")
                case .failure(let error):
                    cutShort += 1
                    #expect([.closedByPeer, .malformedResponse].contains(error.code), "\(error) for \(input)")
                }
            case .failure(let error):
                threw += 1
                #expect([.malformedResponse, .responseTooLarge].contains(error.code), "\(error) for \(input)")
            }
            // The parser is incremental: how the bytes are split does not change the outcome.
            let (head, body) = (Self.limits.maxHeadBytes, Self.limits.maxBodyBytes)
            let whole = HTTPResponseParserReplay.parse(
                bytes, pieceSize: bytes.count, maxHeadBytes: head, maxBodyBytes: body)
            let split = HTTPResponseParserReplay.parse(
                bytes, pieceSize: 1 + round % 13, maxHeadBytes: head, maxBodyBytes: body)
            #expect(whole == split, "\(input)")
        }
        // The inputs reach every outcome, so each branch's checks above really ran.
        #expect(parsed > 0, "no input parsed")
        #expect(cutShort > 0, "no input was cut short")
        #expect(threw > 0, "no input was rejected")
    }

    /// A parsed response keeps the parser's promises: a final status, a body within the limit, header values
    /// without CR, LF or NUL.
    private func expectWithinBounds(_ response: ParsedResponse, _ input: String) {
        #expect((200...999).contains(response.statusCode), "\(input)")
        #expect(response.body.count <= Self.limits.maxBodyBytes, "\(input)")
        let forbidden: Set<UInt8> = [0x0D, 0x0A, 0]
        #expect(!response.headers.fields.contains { $0.value.utf8.contains(where: forbidden.contains) }, "\(input)")
    }

    @Test("Oversized heads, bodies, chunk sizes and lengths throw instead of growing")
    func limits() {
        let small = HTTPParserLimits(maxHeadBytes: 64, maxBodyBytes: 8)
        let inputs = [
            "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 100) + "\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(repeating: "0", count: 2000),
            "HTTP/1.1 200 OK\r\n\r\n123456789",
        ]
        for input in inputs {
            var parser = HTTPResponseParser(method: "GET", limits: small)
            #expect(throws: NativeTransportError.self, "\(input.prefix(60))") {
                try Array(input.utf8).withUnsafeBytes { _ = try parser.feed($0) }
            }
        }
    }
}
