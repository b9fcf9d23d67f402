import Foundation

/// The in-memory store: entries in a dictionary behind our ``Lock``, bounded by bytes (bodies and fields), the
/// least recently used evicted first. Memory cannot be torn, so bodies are not checksummed.
final class MemoryCacheStore: CacheStore {
    private struct Slot {
        var entry: CacheEntry
        var lastUse: UInt64
    }

    private struct State {
        var slots: [CacheKey: Slot] = [:]
        var keysByURL: [String: Set<CacheKey>] = [:]
        var totalBytes = 0
        var tick: UInt64 = 0
    }

    /// The most bytes kept.
    let maxBytes: Int
    private let state = Lock(State())

    init(maxBytes: Int) {
        self.maxBytes = max(0, maxBytes)
    }

    var totalBytes: Int { state.withLock { $0.totalBytes } }

    func entry(for key: CacheKey) -> CacheEntry? {
        state.withLock { state in
            guard let index = state.slots.index(forKey: key) else { return nil }
            state.tick &+= 1
            state.slots.values[index].lastUse = state.tick
            return state.slots.values[index].entry
        }
    }

    func store(_ head: CacheEntry.Head, body: CacheBodySource, for key: CacheKey) -> CacheEntry? {
        let data: Data
        switch body {
        case .data(let bytes): data = bytes
        case .file(let url):
            guard let size = CacheFileIO.size(of: url), size <= maxBytes,
                let bytes = try? Data(contentsOf: url, options: .mappedIfSafe)
            else { return nil }
            data = Data(bytes)
        }
        var head = head
        head.bodyLength = data.count
        head.bodySHA256 = ""
        let entry = CacheEntry(head: head, body: .data(data))
        guard entry.cost <= maxBytes else {
            remove(key)
            return nil
        }
        state.withLock { state in
            Self.remove(key, from: &state)
            state.tick &+= 1
            state.slots[key] = Slot(entry: entry, lastUse: state.tick)
            state.keysByURL[key.url, default: []].insert(key)
            state.totalBytes += entry.cost
            evict(&state)
        }
        return entry
    }

    func update(_ head: CacheEntry.Head, for key: CacheKey) -> CacheEntry? {
        state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            var head = head
            head.bodyLength = slot.entry.head.bodyLength
            head.bodySHA256 = slot.entry.head.bodySHA256
            state.totalBytes -= slot.entry.cost
            slot.entry = CacheEntry(head: head, body: slot.entry.body)
            state.totalBytes += slot.entry.cost
            state.slots[key] = slot
            evict(&state)
            return slot.entry
        }
    }

    func remove(_ key: CacheKey) {
        state.withLock { Self.remove(key, from: &$0) }
    }

    func removeAll(url: String) {
        state.withLock { state in
            for key in state.keysByURL[url] ?? [] { Self.remove(key, from: &state) }
        }
    }

    func body(of entry: CacheEntry, key: CacheKey) -> Data? {
        guard case .data(let data) = entry.body else { return nil }
        return data
    }

    func writeBody(of entry: CacheEntry, key: CacheKey, to url: URL) -> Bool {
        guard case .data(let data) = entry.body else { return false }
        do {
            try data.write(to: url)
            return true
        } catch {
            return false
        }
    }

    private static func remove(_ key: CacheKey, from state: inout State) {
        guard let slot = state.slots.removeValue(forKey: key) else { return }
        state.totalBytes -= slot.entry.cost
        state.keysByURL[key.url]?.remove(key)
        if state.keysByURL[key.url]?.isEmpty == true { state.keysByURL[key.url] = nil }
    }

    /// Evicts the least recently used entries until the store is within its bound.
    private func evict(_ state: inout State) {
        guard state.totalBytes > maxBytes else { return }
        let oldestFirst = state.slots.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key)
        for key in oldestFirst where state.totalBytes > maxBytes {
            Self.remove(key, from: &state)
        }
    }
}
