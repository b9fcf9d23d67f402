import Foundation

/// What a store keeps entries in: the in-memory LRU (``MemoryCacheStore``) and the disk store
/// (``DiskCacheStore``), behind ``CacheStorage``.
protocol CacheStore: Sendable {
    /// The stored entry of `key`, or `nil`.
    func entry(for key: CacheKey) -> CacheEntry?
    /// Stores `body` under `key` with `head` (its body length and checksum filled in by the store), replacing what
    /// was there; returns the stored entry, or `nil` when it was not stored (too large, the disk failed).
    func store(_ head: CacheEntry.Head, body: CacheBodySource, for key: CacheKey) -> CacheEntry?
    /// Replaces the head of the entry of `key` (after a `304`), keeping its body; returns the updated entry, or
    /// `nil` when it is gone.
    func update(_ head: CacheEntry.Head, for key: CacheKey) -> CacheEntry?
    /// Removes the entry of `key`.
    func remove(_ key: CacheKey)
    /// Removes the entries of `url`, every credential partition's.
    func removeAll(url: String)
    /// The body of `entry`, checked against its length and checksum; `nil` (and the entry removed) when it is not
    /// intact.
    func body(of entry: CacheEntry, key: CacheKey) -> Data?
    /// Writes the body of `entry` to the file at `url`, checked as it is copied; `false` (the entry removed and the
    /// file deleted) when it is not intact or cannot be written.
    func writeBody(of entry: CacheEntry, key: CacheKey, to url: URL) -> Bool
    /// The bytes the store holds.
    var totalBytes: Int { get }
}

/// A body to store.
enum CacheBodySource {
    /// Bytes in memory.
    case data(Data)
    /// The bytes of a file (a response whose body went to a file destination).
    case file(URL)
}

/// Reading and copying files in chunks, with a checksum.
enum CacheFileIO {
    static let chunkSize = 64 * 1024

    /// Copies `length` bytes from `offset` of `source` into `destination` (created or truncated), hashing them.
    /// Returns the hex SHA-256, or `nil` when the source ended early or a write failed.
    static func copy(from source: URL, offset: Int, length: Int?, to destination: URL) -> (sha: String, count: Int)? {
        guard let input = try? FileHandle(forReadingFrom: source) else { return nil }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = try? FileHandle(forWritingTo: destination)
        else { return nil }
        defer { try? output.close() }
        do {
            try input.seek(toOffset: UInt64(offset))
            var digest = SHA256Digest()
            var copied = 0
            while length.map({ copied < $0 }) ?? true {
                let want = length.map { min(chunkSize, $0 - copied) } ?? chunkSize
                guard let chunk = try input.read(upToCount: want), !chunk.isEmpty else { break }
                chunk.withUnsafeBytes { digest.update(buffer: $0) }
                try output.write(contentsOf: chunk)
                copied += chunk.count
            }
            if let length, copied != length { return nil }
            return (SHA256Digest.hex(digest.finalize()), copied)
        } catch {
            return nil
        }
    }

    /// The hex SHA-256 of `data`.
    static func sha(of data: Data) -> String {
        var digest = SHA256Digest()
        data.withUnsafeBytes { digest.update(buffer: $0) }
        return SHA256Digest.hex(digest.finalize())
    }

    /// The size of the file at `url`, or `nil`.
    static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }
}
