import Foundation

/// The on-disk store: one file per entry in a folder of its own, bounded by bytes, the least recently used evicted
/// first; it survives restarts and is shared by the stores (of one process or several) opened on the folder.
///
/// - **Atomic writes**: an entry is written to a temporary file in the folder and renamed over the entry's file, so
///   a reader sees the old entry or the whole new one, never part of one, even when the writer is killed.
///   Temporary files left by a killed writer are deleted when a store next opens the folder (those older than a
///   minute).
/// - **Checked reads**: a file whose size, head checksum or body checksum does not match (truncated, corrupted,
///   written by something else) is a miss and is deleted.
/// - **Names**: `<SHA-256 of the URL>-<SHA-256 of the key>.entry` (hex prefixes), so no credential or URL is
///   visible in a file name and invalidating a URL removes every partition's entry.
/// - **Bound**: the store counts the files it knows (listed when it first opens the folder, plus its own writes)
///   and after each write evicts the least recently used until it holds at most `maxBytes`.
final class DiskCacheStore: CacheStore {
    private struct State {
        var loaded = false
        /// File name → (size, last use).
        var files: [String: (size: Int, lastUse: Double)] = [:]
        var totalBytes = 0
    }

    let directory: URL
    let maxBytes: Int
    private let state = Lock(State())

    init(directory: URL, maxBytes: Int) {
        self.directory = directory
        self.maxBytes = max(0, maxBytes)
    }

    var totalBytes: Int { state.withLock { $0.totalBytes } }

    static func fileName(for key: CacheKey) -> String {
        urlPrefix(key.url) + "-" + String(SHA256Digest.hex(of: Array(key.combined.utf8)).prefix(32)) + ".entry"
    }

    private static func urlPrefix(_ url: String) -> String {
        String(SHA256Digest.hex(of: Array(url.utf8)).prefix(32))
    }

    private func url(of name: String) -> URL { directory.appendingPathComponent(name, isDirectory: false) }

    /// Lists the folder once: the entry files and their sizes; deletes stale temporary files.
    private func loadIfNeeded() {
        state.withLock { state in
            guard !state.loaded else { return }
            state.loaded = true
            let manager = FileManager.default
            try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
            let now = Date().timeIntervalSince1970
            for name in names {
                let attributes = try? manager.attributesOfItem(atPath: url(of: name).path)
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                if name.hasPrefix(".tmp-") {
                    if now - modified > 60 { try? manager.removeItem(at: url(of: name)) }
                    continue
                }
                guard name.hasSuffix(".entry"), let size = (attributes?[.size] as? NSNumber)?.intValue else { continue }
                state.files[name] = (size, modified)
                state.totalBytes += size
            }
        }
    }

    func entry(for key: CacheKey) -> CacheEntry? {
        loadIfNeeded()
        let name = Self.fileName(for: key)
        let fileURL = url(of: name)
        guard let entry = DiskCacheEntryFile.read(fileURL), entry.head.key == key.combined else {
            if FileManager.default.fileExists(atPath: fileURL.path) { remove(key) }
            return nil
        }
        let size = CacheFileIO.size(of: fileURL) ?? 0
        state.withLock { state in
            state.totalBytes += size - (state.files[name]?.size ?? 0)
            state.files[name] = (size, Date().timeIntervalSince1970)
        }
        return entry
    }

    func store(_ head: CacheEntry.Head, body: CacheBodySource, for key: CacheKey) -> CacheEntry? {
        loadIfNeeded()
        var head = head
        let temporary = url(of: ".tmp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        // The body first (to learn its length and checksum), then the head in front of it.
        let bodyFile = url(of: ".tmp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        switch body {
        case .data(let data):
            head.bodyLength = data.count
            head.bodySHA256 = CacheFileIO.sha(of: data)
            guard let prefix = DiskCacheEntryFile.prefix(of: head), prefix.count + data.count <= maxBytes else {
                return nil
            }
            do {
                try (prefix + data).write(to: temporary)
            } catch {
                return nil
            }
        case .file(let source):
            guard let size = CacheFileIO.size(of: source), size <= maxBytes,
                let copied = CacheFileIO.copy(from: source, offset: 0, length: size, to: bodyFile)
            else { return nil }
            head.bodyLength = copied.count
            head.bodySHA256 = copied.sha
            guard let prefix = DiskCacheEntryFile.prefix(of: head), prefix.count + copied.count <= maxBytes,
                FileManager.default.createFile(atPath: temporary.path, contents: prefix),
                append(bodyFile, to: temporary)
            else { return nil }
        }
        let name = Self.fileName(for: key)
        let destination = url(of: name)
        guard rename(temporary.path, destination.path) == 0 else { return nil }
        let size = CacheFileIO.size(of: destination) ?? 0
        evict(adding: name, size: size)
        return DiskCacheEntryFile.read(destination)
    }

    /// Appends the file at `source` to `destination`.
    private func append(_ source: URL, to destination: URL) -> Bool {
        guard let input = try? FileHandle(forReadingFrom: source),
            let output = try? FileHandle(forWritingTo: destination)
        else { return false }
        defer {
            try? input.close()
            try? output.close()
        }
        do {
            try output.seekToEnd()
            while let chunk = try input.read(upToCount: CacheFileIO.chunkSize), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
            return true
        } catch {
            return false
        }
    }

    func update(_ head: CacheEntry.Head, for key: CacheKey) -> CacheEntry? {
        guard let current = entry(for: key), case .file(let fileURL, let offset, let length) = current.body else {
            return nil
        }
        var head = head
        head.bodyLength = current.head.bodyLength
        head.bodySHA256 = current.head.bodySHA256
        let bodyFile = url(of: ".tmp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        guard let copied = CacheFileIO.copy(from: fileURL, offset: offset, length: length, to: bodyFile),
            copied.sha == head.bodySHA256
        else {
            remove(key)
            return nil
        }
        return store(head, body: .file(bodyFile), for: key)
    }

    func remove(_ key: CacheKey) {
        removeFile(Self.fileName(for: key))
    }

    private func removeFile(_ name: String) {
        try? FileManager.default.removeItem(at: url(of: name))
        state.withLock { state in
            if let removed = state.files.removeValue(forKey: name) { state.totalBytes -= removed.size }
        }
    }

    func removeAll(url: String) {
        loadIfNeeded()
        let prefix = Self.urlPrefix(url) + "-"
        let names = state.withLock { $0.files.keys.filter { $0.hasPrefix(prefix) } }
        for name in names { removeFile(name) }
        // Entries other stores wrote since this one listed the folder.
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in listed where name.hasPrefix(prefix) { removeFile(name) }
    }

    func body(of entry: CacheEntry, key: CacheKey) -> Data? {
        guard case .file(let fileURL, let offset, let length) = entry.body,
            let handle = try? FileHandle(forReadingFrom: fileURL)
        else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
            let data = length == 0 ? Data() : try? handle.read(upToCount: length),
            data.count == length, CacheFileIO.sha(of: data) == entry.head.bodySHA256
        else {
            remove(key)
            return nil
        }
        return data
    }

    func writeBody(of entry: CacheEntry, key: CacheKey, to destination: URL) -> Bool {
        guard case .file(let fileURL, let offset, let length) = entry.body,
            let copied = CacheFileIO.copy(from: fileURL, offset: offset, length: length, to: destination),
            copied.sha == entry.head.bodySHA256
        else {
            try? FileManager.default.removeItem(at: destination)
            remove(key)
            return false
        }
        return true
    }

    /// Records the file `name` and evicts the least recently used files until the store is within its bound.
    private func evict(adding name: String, size: Int) {
        let victims = state.withLock { state -> [String] in
            state.totalBytes += size - (state.files[name]?.size ?? 0)
            state.files[name] = (size, Date().timeIntervalSince1970)
            guard state.totalBytes > maxBytes else { return [] }
            var victims: [String] = []
            var total = state.totalBytes
            for (candidate, file) in state.files.sorted(by: { $0.value.lastUse < $1.value.lastUse })
            where total > maxBytes && candidate != name {
                victims.append(candidate)
                total -= file.size
            }
            return victims
        }
        for victim in victims { removeFile(victim) }
    }
}
