import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import CBothamZlib
import Foundation
import Testing

@Suite("NativeHTTPClient content decoding", .timeLimit(.minutes(1)))
struct NativeHTTPClientDecodingTests {
    private static let gzipHello =
        Data(base64Encoded: "H4sIAHVJDGsC/8tIzcnJV0ivyixQKM8vyklRVMgYFaGBCADJ265waAEAAA==") ?? Data()

    /// zlib-wrapped deflate (Content-Encoding: deflate) of `data`.
    private static func deflate(_ data: Data) -> Data {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBytes { input in
            compress2(&output, &length, input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(data.count), 9)
        }
        return status == Z_OK ? Data(output[0..<Int(length)]) : Data()
    }

    @Test("gzip bodies are decoded and Content-Encoding and Content-Length dropped")
    func gzip() async throws {
        let server = try makeServer { _ in
            MockResponse(headers: [.contentEncoding: "gzip"], body: Self.gzipHello)
        }
        defer { server.shutdown() }
        let response = try await makeClient().send(get(server))
        #expect(String(decoding: response.body, as: UTF8.self) == String(repeating: "hello gzip world! ", count: 20))
        #expect(response.headers[.contentEncoding] == nil)
        #expect(response.headers[.contentLength] == nil)
    }

    @Test("deflate bodies are decoded")
    func deflateBody() async throws {
        let text = Data(String(repeating: "deflate me ", count: 100).utf8)
        let server = try makeServer { _ in
            MockResponse(headers: [.contentEncoding: "deflate"], body: Self.deflate(text))
        }
        defer { server.shutdown() }
        #expect(try await makeClient().send(get(server)).body == text)
    }

    @Test("A decompression bomb stops at the response size limit")
    func bomb() async throws {
        let bomb = Self.deflate(Data(repeating: 0, count: 4 << 20))
        let server = try makeServer { _ in
            MockResponse(headers: [.contentEncoding: "deflate"], body: bomb)
        }
        defer { server.shutdown() }
        let client = makeClient { $0.limits.maxResponseBytes = 1 << 19 }
        let error = await failure(of: get(server), with: client)
        #expect(error.flatMap(failureKind) == .responseTooLarge)
    }

    @Test("With decompression off, no Accept-Encoding is sent and bodies are left encoded")
    func decompressionOff() async throws {
        let server = try makeServer { _ in
            MockResponse(headers: [.contentEncoding: "gzip"], body: Self.gzipHello)
        }
        defer { server.shutdown() }
        let response = try await makeClient { $0.decompression = false }.send(get(server))
        #expect(response.body == Self.gzipHello)
        #expect(try await server.takeRequest().header("Accept-Encoding") == nil)
    }

    @Test("A user's Accept-Encoding is sent unchanged")
    func userAcceptEncoding() async throws {
        let server = try makeServer { _ in MockResponse() }
        defer { server.shutdown() }
        _ = try await makeClient().send(get(server, headers: [.acceptEncoding: "identity"]))
        #expect(try await server.takeRequest().header("Accept-Encoding") == "identity")
    }

    @Test("Corrupt gzip fails with badServerResponse")
    func corrupt() async throws {
        let server = try makeServer { _ in
            MockResponse(headers: [.contentEncoding: "gzip"], body: Data("not gzip at all".utf8))
        }
        defer { server.shutdown() }
        let error = await failure(of: get(server), with: makeClient())
        #expect(error.flatMap(failureKind) == .badServerResponse)
    }
}
