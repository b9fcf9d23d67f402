import Foundation
import Testing

@testable import BothamNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSessionHTTPClient's in-memory response body", .timeLimit(.minutes(1)))
struct URLSessionResponseBodyTests {

    private func response(_ headers: [String: String]) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        return try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    private func bytes(_ count: Int, seed: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
    }

    @Test("A large body of announced length arrives intact in chunks of any size, and a short one is cut to what came")
    func announcedLength() throws {
        let length = 300 << 10
        let body = bytes(length, seed: 7)
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        for chunkSize in [1 << 10, 65_536, 100_000, length] {
            var received = URLSessionResponseBody(fileURL: nil, limit: 8 << 20, pool: pool)
            #expect(received.start(try response(["Content-Length": "\(length)"]), streamed: false) == nil)
            var offset = 0
            while offset < length {
                let end = min(offset + chunkSize, length)
                #expect(received.append(body[offset..<end]) == nil)
                offset = end
                #expect(received.data == body.prefix(offset), "\(chunkSize) at \(offset)")
            }
            #expect(received.data == body)
            // The body's memory came from the pool and goes back to it when the body is gone.
            #expect(pool.idleBytes == 0)
            received.reset()
            #expect(pool.idleBytes == BodyBufferPool.capacity(for: length), "\(chunkSize)")
        }
    }

    @Test("Bytes beyond the announced length are kept, with those before them")
    func moreThanAnnounced() throws {
        let length = 300 << 10
        let body = bytes(length + 5000, seed: 3)
        var received = URLSessionResponseBody(fileURL: nil, limit: 8 << 20)
        #expect(received.start(try response(["Content-Length": "\(length)"]), streamed: false) == nil)
        #expect(received.append(body.prefix(length - 100)) == nil)
        #expect(received.append(body[(length - 100)...]) == nil)
        #expect(received.data == body)
        #expect(received.append(Data([1, 2, 3])) == nil)
        #expect(received.data == body + Data([1, 2, 3]))
    }

    @Test("A content-coded or small body is appended as it comes; HEAD, 204 and 304 responses take no pooled memory")
    func notPooled() throws {
        let pool = BodyBufferPool(maxIdleBytes: 4 << 20)
        for headers in [["Content-Length": "\(300 << 10)", "Content-Encoding": "gzip"], ["Content-Length": "10"]] {
            let body = bytes(400 << 10, seed: 9)
            var received = URLSessionResponseBody(fileURL: nil, limit: 8 << 20, pool: pool)
            #expect(received.start(try response(headers), streamed: false) == nil)
            #expect(received.append(body) == nil)
            #expect(received.data == body)
            received.reset()
        }
        let large = ["Content-Length": "\(1 << 20)"]
        var head = URLSessionResponseBody(fileURL: nil, limit: 8 << 20, isHeadRequest: true, pool: pool)
        #expect(head.start(try response(large), streamed: false) == nil)
        head.reset()
        for status in [204, 304] {
            let url = try #require(URL(string: "http://127.0.0.1/x"))
            let answer = try #require(
                HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: large))
            var received = URLSessionResponseBody(fileURL: nil, limit: 8 << 20, pool: pool)
            #expect(received.start(answer, streamed: false) == nil)
            received.reset()
        }
        #expect(pool.idleBytes == 0)
    }
}
