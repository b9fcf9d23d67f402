import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@testable import BothamNetworking

/// A fresh folder under the temporary directory.
func temporaryCacheFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("botham-cache-\(UUID().uuidString)")
}

/// The entry files of the disk store in `folder`.
func entryFiles(in folder: URL) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".entry") }
        .map { folder.appendingPathComponent($0) }
}

@Suite("MemoryCacheStore: bounded by bytes, least recently used evicted first", .timeLimit(.minutes(1)))
struct MemoryCacheStoreTests {
    @Test("over its bound the store evicts the least recently used entries, and never holds more than the bound")
    func evictsLeastRecentlyUsed() async throws {
        let cache = CacheHarness(storage: .memory(maxBytes: 3000))
        cache.stub.stub(with: .response(headers: ["Cache-Control": "max-age=600"], body: Data(count: 700)))
        for path in ["/a", "/b", "/c"] { _ = try await cache.get(path) }
        _ = try await cache.get("/a")  // /a is now more recently used than /b
        _ = try await cache.get("/d")
        #expect(cache.cache.storage.totalBytes <= 3000)
        #expect(try await cache.get("/a").cacheStatus == .hit)
        #expect(try await cache.get("/b").cacheStatus == .miss)
    }

    @Test("an entry larger than the whole bound is not stored")
    func tooLargeNotStored() async throws {
        let cache = CacheHarness(storage: .memory(maxBytes: 1000))
        cache.stub.stub(with: .response(headers: ["Cache-Control": "max-age=600"], body: Data(count: 5000)))
        _ = try await cache.get()
        #expect(cache.cache.storage.totalBytes == 0)
        #expect(try await cache.get().cacheStatus == .miss)
    }
}

@Suite("DiskCacheStore: atomic files, checked reads, bounded by bytes, survives restarts", .timeLimit(.minutes(1)))
struct DiskCacheStoreTests {
    @Test("an entry written by one store is served by a new store on the same folder (a restart)")
    func survivesRestart() async throws {
        let folder = temporaryCacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
        first.stub.stub(with: .text("persisted", headers: ["Cache-Control": "max-age=600", "ETag": #""p""#]))
        _ = try await first.get()
        let second = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
        let hit = try await second.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.bodyText == "persisted")
        #expect(hit.headers[.eTag] == #""p""#)
        #expect(second.sent.isEmpty)
    }

    @Test("a corrupted body is a miss, never a wrong body, and its file is removed")
    func corruptBodyIsMiss() async throws {
        let folder = temporaryCacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
        cache.stub.stub(with: .text("original body", headers: ["Cache-Control": "max-age=600"]))
        _ = try await cache.get()
        let file = try #require(entryFiles(in: folder).first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: file)
        let response = try await cache.get()
        #expect(response.cacheStatus == .miss)
        #expect(response.bodyText == "original body")
        #expect(cache.sent.count == 2)
    }

    @Test("a truncated, empty or garbage entry file is a miss and is removed")
    func truncatedIsMiss() async throws {
        for damage in ["truncate", "empty", "garbage"] {
            let folder = temporaryCacheFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let cache = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
            cache.stub.stub(with: .text("body", headers: ["Cache-Control": "max-age=600"]), .text("again"))
            _ = try await cache.get()
            let file = try #require(entryFiles(in: folder).first)
            let bytes = try Data(contentsOf: file)
            switch damage {
            case "truncate": try bytes.prefix(bytes.count - 2).write(to: file)
            case "empty": try Data().write(to: file)
            default: try Data("not an entry at all".utf8).write(to: file)
            }
            let fresh = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
            fresh.stub.stub(with: .text("refetched", headers: ["Cache-Control": "no-store"]))
            let response = try await fresh.get()
            #expect(response.cacheStatus == .miss, "\(damage)")
            #expect(response.bodyText == "refetched", "\(damage)")
            #expect(entryFiles(in: folder).isEmpty, "\(damage)")
        }
    }

    @Test("over its bound the disk store evicts the least recently used files")
    func evicts() async throws {
        let folder = temporaryCacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CacheHarness(storage: .disk(directory: folder, maxBytes: 4000))
        cache.stub.stub(with: .response(headers: ["Cache-Control": "max-age=600"], body: Data(count: 1000)))
        for path in ["/a", "/b", "/c", "/d", "/e"] { _ = try await cache.get(path) }
        let onDisk = entryFiles(in: folder).compactMap { CacheFileIO.size(of: $0) }.reduce(0, +)
        #expect(onDisk <= 4000)
        #expect(cache.cache.storage.totalBytes <= 4000)
        #expect(try await cache.get("/e").cacheStatus == .hit)
        #expect(try await cache.get("/a").cacheStatus == .miss)
    }

    @Test("a 304 rewrites the entry's head and keeps its body, across a restart")
    func revalidationUpdatesFile() async throws {
        let folder = temporaryCacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
        cache.stub.stub(
            with: .text("body", headers: ["Cache-Control": "max-age=0", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["Cache-Control": "max-age=600", "X-Seen": "1"]))
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .revalidated)
        let restarted = CacheHarness(storage: .disk(directory: folder, maxBytes: 1 << 20))
        let hit = try await restarted.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.bodyText == "body")
        #expect(hit.headers["X-Seen"] == "1")
        #expect(entryFiles(in: folder).count == 1)
    }

    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        #expect(
            SHA256Digest.hex(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256Digest.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256Digest.hex(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var chunked = SHA256Digest()
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        million.prefix(333).withUnsafeBytes { chunked.update(buffer: $0) }
        million.dropFirst(333).withUnsafeBytes { chunked.update(buffer: $0) }
        #expect(
            SHA256Digest.hex(chunked.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

@Suite("CacheInterceptor: file destinations and streaming calls are served from the store", .timeLimit(.minutes(1)))
struct CacheDestinationTests {
    @Test("a download is stored and then served from the store into its file, on both stores")
    func downloadServedIntoFile() async throws {
        let folder = temporaryCacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for storage in [
            CacheInterceptor.Storage.memory(maxBytes: 1 << 20),
            .disk(directory: folder.appendingPathComponent("store"), maxBytes: 1 << 20),
        ] {
            let cache = CacheHarness(storage: storage)
            cache.stub.stub(with: .response(headers: ["Cache-Control": "max-age=600"], body: body))
            let downloads = folder.appendingPathComponent("downloads-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            let first = try await cache.client.download("/big", to: .file(downloads.appendingPathComponent("1"))).get()
            let second = try await cache.client.download("/big", to: .file(downloads.appendingPathComponent("2"))).get()
            #expect(first.cacheStatus == .miss)
            #expect(second.cacheStatus == .hit)
            #expect(try Data(contentsOf: try #require(second.bodyFileURL)) == body)
            #expect(second.bodyFileURL?.lastPathComponent == "2")
            #expect(cache.sent.count == 1)
            let inMemory = try await cache.get("/big")
            #expect(inMemory.body == body)
        }
    }

    @Test("a streaming call is served a stored body, and after a 304 the stored body too")
    func streamServed() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            with: .text("line 1\nline 2\n", headers: ["Cache-Control": "max-age=10", "ETag": #""s""#]),
            .response(statusCode: 304))
        _ = try await cache.get("/events")
        let hit = try await cache.client.stream(cache.client.request(.get, "/events"))
        #expect(hit.head.cacheStatus == .hit)
        #expect(String(decoding: try await hit.body.collect(), as: UTF8.self) == "line 1\nline 2\n")
        await cache.clock.advance(by: .seconds(20))
        let revalidated = try await cache.client.stream(cache.client.request(.get, "/events"))
        #expect(revalidated.head.cacheStatus == .revalidated)
        #expect(String(decoding: try await revalidated.body.collect(), as: UTF8.self) == "line 1\nline 2\n")
    }
}
