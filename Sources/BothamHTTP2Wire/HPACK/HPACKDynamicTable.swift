/// The dynamic table of RFC 7541 §2.3.2 and §4: newest entry first (index 1 here, 62 in the combined index space),
/// at most `capacity` bytes counted as name + value + 32 per entry, oldest entries evicted to make room.
struct HPACKDynamicTable: Sendable {
    /// The most bytes the entries may take (the last size update, or the initial SETTINGS value).
    private(set) var capacity: Int
    /// The bytes the entries take now.
    private(set) var size = 0
    /// Oldest first; the live entries start at `start` (evicted ones are dropped in bulk, not one by one).
    private var entries: [HPACKHeaderField] = []
    private var start = 0

    /// A table of at most `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of entries.
    var count: Int { entries.count - start }

    /// The entries, newest first.
    var fields: [HPACKHeaderField] { entries[start...].reversed() }

    /// The entry at `index` (1 is the newest), or nil.
    func field(at index: Int) -> HPACKHeaderField? {
        index >= 1 && index <= count ? entries[entries.count - index] : nil
    }

    /// The index of the newest entry with this name and value, if any.
    func index(name: [UInt8], value: [UInt8]) -> Int? {
        var index = 1
        for field in entries[start...].reversed() {
            if field.name == name && field.value == value { return index }
            index += 1
        }
        return nil
    }

    /// The index of the newest entry with this name, if any.
    func index(name: [UInt8]) -> Int? {
        var index = 1
        for field in entries[start...].reversed() {
            if field.name == name { return index }
            index += 1
        }
        return nil
    }

    /// Adds `field` as the newest entry after evicting what it needs; a field larger than the capacity empties the
    /// table and is not added (RFC 7541 §4.4).
    mutating func insert(_ field: HPACKHeaderField) {
        var entry = field
        entry.neverIndexed = false
        evict(toFit: capacity - entry.size)
        guard entry.size <= capacity else { return }
        entries.append(entry)
        size += entry.size
    }

    /// Sets a new capacity and evicts down to it (RFC 7541 §4.3).
    mutating func setCapacity(_ newCapacity: Int) {
        capacity = max(0, newCapacity)
        evict(toFit: capacity)
    }

    /// Evicts the oldest entries until the table takes at most `bytes` (everything when `bytes` is negative).
    private mutating func evict(toFit bytes: Int) {
        while size > max(0, bytes), start < entries.count {
            size -= entries[start].size
            start += 1
        }
        if start == entries.count {
            entries.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 32 && start * 2 >= entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }
}
