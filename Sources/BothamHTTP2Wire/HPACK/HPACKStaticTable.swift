/// The static table of RFC 7541 Appendix A: 61 fields, indices 1–61, shared by every connection.
enum HPACKStaticTable {
    /// Appendix A's rows, in index order.
    private static let rows: [(name: String, value: String)] = [
        (":authority", ""),  // 1
        (":method", "GET"),  // 2
        (":method", "POST"),  // 3
        (":path", "/"),  // 4
        (":path", "/index.html"),  // 5
        (":scheme", "http"),  // 6
        (":scheme", "https"),  // 7
        (":status", "200"),  // 8
        (":status", "204"),  // 9
        (":status", "206"),  // 10
        (":status", "304"),  // 11
        (":status", "400"),  // 12
        (":status", "404"),  // 13
        (":status", "500"),  // 14
        ("accept-charset", ""),  // 15
        ("accept-encoding", "gzip, deflate"),  // 16
        ("accept-language", ""),  // 17
        ("accept-ranges", ""),  // 18
        ("accept", ""),  // 19
        ("access-control-allow-origin", ""),  // 20
        ("age", ""),  // 21
        ("allow", ""),  // 22
        ("authorization", ""),  // 23
        ("cache-control", ""),  // 24
        ("content-disposition", ""),  // 25
        ("content-encoding", ""),  // 26
        ("content-language", ""),  // 27
        ("content-length", ""),  // 28
        ("content-location", ""),  // 29
        ("content-range", ""),  // 30
        ("content-type", ""),  // 31
        ("cookie", ""),  // 32
        ("date", ""),  // 33
        ("etag", ""),  // 34
        ("expect", ""),  // 35
        ("expires", ""),  // 36
        ("from", ""),  // 37
        ("host", ""),  // 38
        ("if-match", ""),  // 39
        ("if-modified-since", ""),  // 40
        ("if-none-match", ""),  // 41
        ("if-range", ""),  // 42
        ("if-unmodified-since", ""),  // 43
        ("last-modified", ""),  // 44
        ("link", ""),  // 45
        ("location", ""),  // 46
        ("max-forwards", ""),  // 47
        ("proxy-authenticate", ""),  // 48
        ("proxy-authorization", ""),  // 49
        ("range", ""),  // 50
        ("referer", ""),  // 51
        ("refresh", ""),  // 52
        ("retry-after", ""),  // 53
        ("server", ""),  // 54
        ("set-cookie", ""),  // 55
        ("strict-transport-security", ""),  // 56
        ("transfer-encoding", ""),  // 57
        ("user-agent", ""),  // 58
        ("vary", ""),  // 59
        ("via", ""),  // 60
        ("www-authenticate", ""),  // 61
    ]

    /// The entries; index `i` of the table is `fields[i - 1]`.
    static let fields: [HPACKHeaderField] = rows.map { HPACKHeaderField(name: $0.name, value: $0.value) }

    /// The first index of each name and value pair.
    private static let exactIndices: [NameAndValue: Int] = {
        var indices: [NameAndValue: Int] = [:]
        for (offset, field) in fields.enumerated() where indices[NameAndValue(field)] == nil {
            indices[NameAndValue(field)] = offset + 1
        }
        return indices
    }()

    /// The first index of each name.
    private static let nameIndices: [HPACKName: Int] = {
        var indices: [HPACKName: Int] = [:]
        for (offset, field) in fields.enumerated() where indices[HPACKName(bytes: field.name)] == nil {
            indices[HPACKName(bytes: field.name)] = offset + 1
        }
        return indices
    }()

    /// The number of entries (61).
    static var count: Int { fields.count }

    /// The entry at `index` (1–61), or nil.
    static func field(at index: Int) -> HPACKHeaderField? {
        (1...fields.count).contains(index) ? fields[index - 1] : nil
    }

    /// The index of the entry with this name and value, if any.
    static func index(name: [UInt8], value: [UInt8]) -> Int? {
        exactIndices[NameAndValue(name: name, value: value)]
    }

    /// The first index of an entry with this name, if any.
    static func index(name: [UInt8]) -> Int? {
        nameIndices[HPACKName(bytes: name)]
    }
}
