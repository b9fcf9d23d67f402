import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import CBothamZlib
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("NativeHTTPClient decodes streamed gzip and deflate bodies as they arrive", .timeLimit(.minutes(1)))
struct NativeStreamingDecodingTests {
    /// `data` compressed with zlib (`windowBits` 15: zlib-wrapped deflate, 31: gzip, -15: raw deflate).
    static func compress(_ data: Data, windowBits: Int32) -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return Data() }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output -> Int in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return output.count - Int(stream.avail_out)
            }
        }
        return Data(output[0..<produced])
    }

    static func lines(_ count: Int) -> Data {
        Data((0..<count).map { "line \($0) of a compressed event feed\n" }.joined().utf8)
    }

    @Test(
        "a gzip stream is decoded piece by piece: the first half is readable before the rest is sent",
        arguments: [
            ("gzip", Int32(31)), ("deflate", Int32(15)), ("deflate", Int32(-15)),
        ])
    func decodesIncrementally(coding: String, windowBits: Int32) async throws {
        let text = Self.lines(2_000)
        let coded = Self.compress(text, windowBits: windowBits)
        try #require(!coded.isEmpty)
        let half = coded.count / 2
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withHeader("Content-Encoding", coding).streaming([
                .init(coded.prefix(half)), .init(coded.suffix(from: half), after: TestTimeScale.scaled(.seconds(2))),
            ]))
        let apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())

        let response = try await apiClient.stream(.get, "/feed")
        var decoded = Data()
        for try await chunk in response.body { decoded.append(chunk) }
        // Incremental: the first half of the coded bytes alone already decodes to text (no waiting for the rest).
        let inflater = try #require(StreamingInflater(contentEncoding: coding))
        let early = try coded.prefix(half).withUnsafeBytes { try inflater.feed($0) }

        #expect(!early.isEmpty, "the first half of the coded body decoded to nothing")
        #expect(text.starts(with: early))
        #expect(decoded == text)
        #expect(response.head.headers[.contentEncoding] == nil)
        #expect(response.head.headers[.contentLength] == nil)
        let request = try await server.takeRequest()
        #expect(request.header("Accept-Encoding") == "gzip, deflate")
    }

    @Test("a gzip stream cut short ends the stream with badServerResponse")
    func truncatedStream() async throws {
        let coded = Self.compress(Self.lines(500), windowBits: 31)
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withHeader("Content-Encoding", "gzip").streaming([.init(coded.prefix(coded.count - 8))]))
        let apiClient = BothamAPIClient(baseEndpoint: server.baseURL.absoluteString, httpClient: NativeHTTPClient())

        do {
            _ = try await apiClient.stream(.get, "/feed").body.collect()
            Issue.record("a truncated gzip stream was accepted")
        } catch {
            guard case .networkError(let failure) = error else {
                Issue.record("expected a network error, got \(error)")
                return
            }
            #expect(failure.kind == .badServerResponse)
        }
    }
}
