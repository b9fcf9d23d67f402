import Foundation

/// The format of one disk store entry file, written whole to a temporary file and renamed into place:
///
/// ```
/// "BOTHAMC1" | head length (4 bytes, big-endian) | head (JSON) | SHA-256 of the head (32 bytes) | body
/// ```
///
/// The head carries the body's length and SHA-256. A file is intact only when its size is exactly what the head
/// says, the head's checksum matches and (when the body is read) the body's does; anything else is a miss.
enum DiskCacheEntryFile {
    static let magic = Array("BOTHAMC1".utf8)
    /// The largest head read (a head is fields and a few numbers).
    static let maxHeadLength = 1 << 20

    /// The head bytes of an entry file (everything before the body).
    static func prefix(of head: CacheEntry.Head) -> Data? {
        guard let json = try? JSONEncoder().encode(head), json.count <= maxHeadLength else { return nil }
        var data = Data(magic)
        let length = UInt32(json.count)
        data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) })
        data.append(json)
        var digest = SHA256Digest()
        json.withUnsafeBytes { digest.update(buffer: $0) }
        data.append(contentsOf: digest.finalize())
        return data
    }

    /// The entry in the file at `url`, its body left in the file, or `nil` when the file is missing or not intact
    /// (wrong magic, a head that does not parse or match its checksum, a size that is not the head's plus the
    /// body's).
    static func read(_ url: URL) -> CacheEntry? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: magic.count + 4), start.count == magic.count + 4,
            Array(start.prefix(magic.count)) == magic
        else { return nil }
        let lengthBytes = Array(start.suffix(4))
        let headLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard headLength > 0, headLength <= maxHeadLength,
            let rest = try? handle.read(upToCount: headLength + 32), rest.count == headLength + 32
        else { return nil }
        let json = rest.prefix(headLength)
        var digest = SHA256Digest()
        json.withUnsafeBytes { digest.update(buffer: $0) }
        guard digest.finalize() == Array(rest.suffix(32)),
            let head = try? JSONDecoder().decode(CacheEntry.Head.self, from: json), head.bodyLength >= 0
        else { return nil }
        let offset = magic.count + 4 + headLength + 32
        guard let size = CacheFileIO.size(of: url), size == offset + head.bodyLength else { return nil }
        return CacheEntry(head: head, body: .file(url, offset: offset, length: head.bodyLength))
    }
}
