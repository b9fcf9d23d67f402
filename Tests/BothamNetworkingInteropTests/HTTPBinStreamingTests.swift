import BothamNetworking
import Foundation
import Testing

extension HTTPBinInteropTests {
    @Suite("httpbin: streamed response bodies", .timeLimit(.minutes(1)))
    struct HTTPBinStreamingTests {
        let apiClient = HTTPBin.client()

        /// One line of `/stream/{n}`: httpbin echoes the request with the line's index as `id`.
        struct StreamLine: Decodable, Sendable {
            let id: Int
            let url: String
        }

        @Test("GET /stream/{n} decodes as n JSON lines with ids 0..<n")
        func jsonLines() async throws {
            let count = 20
            let response = try await apiClient.stream(.get, "/stream/\(count)")
            #expect(response.head.statusCode == 200)

            var lines: [StreamLine] = []
            for try await line in response.jsonLines(decoding: StreamLine.self) { lines.append(line) }

            #expect(lines.map(\.id) == Array(0..<count))
            #expect(lines.allSatisfy { $0.url.hasSuffix("/stream/\(count)") })
        }

        @Test("GET /drip hands over the head at once and the bytes as they trickle in")
        func drip() async throws {
            let start = ContinuousClock.now
            let response = try await apiClient.stream(
                .get, "/drip", parameters: ["numbytes": "5", "duration": "1", "delay": "0"])
            let timeToHead = ContinuousClock.now - start
            #expect(response.head.statusCode == 200)

            var received = Data()
            var timeToLastByte = timeToHead
            for try await chunk in response.body {
                received.append(chunk)
                timeToLastByte = ContinuousClock.now - start
            }

            #expect(received == Data(repeating: UInt8(ascii: "*"), count: 5))
            // httpbin sends a byte every 0.2 s, so the last one comes about 0.8 s after the first (and the head).
            #expect(timeToLastByte >= .milliseconds(500), "the last byte came after \(timeToLastByte)")
            #expect(
                timeToHead + .milliseconds(300) < timeToLastByte,
                "the head came after \(timeToHead), the last byte after \(timeToLastByte)")
        }

        @Test(
            "GET /stream-bytes/{n} in chunks of any size collects exactly the n bytes a plain GET gets",
            arguments: [1, 997, 16 * 1024])
        func streamBytes(chunkSize: Int) async throws {
            let count = 20_000
            let parameters: HTTPParameters = ["chunk_size": "\(chunkSize)", "seed": "7"]
            let response = try await apiClient.stream(.get, "/stream-bytes/\(count)", parameters: parameters)
            #expect(response.head.statusCode == 200)

            let streamed = try await response.body.collect()

            #expect(streamed.count == count)
            let plain = try await apiClient.GET("/stream-bytes/\(count)", parameters: parameters).get()
            #expect(streamed == plain.body)
        }

        @Test("a streaming call to /status/404 throws httpResponseError with status 404 under the default validation")
        func rejectedStatus() async throws {
            let strict = BothamAPIClient(baseEndpoint: HTTPBin.url ?? "", httpClient: HTTPBin.transport())
            do {
                let response = try await strict.stream(.get, "/status/404")
                Issue.record("expected httpResponseError, got a \(response.head.statusCode) stream")
            } catch {
                guard case .httpResponseError(let response) = error else {
                    Issue.record("expected httpResponseError, got \(error)")
                    return
                }
                #expect(response.statusCode == 404)
            }
        }

        @Test("a rejected streamed response keeps its body in the error, like a plain call")
        func rejectedBody() async throws {
            let strict = BothamAPIClient(baseEndpoint: HTTPBin.url ?? "", httpClient: HTTPBin.transport())
            let plain = await strict.GET("/status/418")
            do {
                _ = try await strict.stream(.get, "/status/418")
                Issue.record("expected httpResponseError")
            } catch {
                guard case .httpResponseError(let response) = error, case .failure(let plainError) = plain else {
                    Issue.record("expected two httpResponseErrors, got \(error) and \(plain)")
                    return
                }
                #expect(response.statusCode == 418)
                #expect(String(decoding: response.body, as: UTF8.self).contains("teapot"))
                #expect(response.body == plainError.response?.body)
            }
        }
    }
}
