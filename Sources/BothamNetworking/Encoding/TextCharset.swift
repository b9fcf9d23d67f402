import Foundation

extension HTTPResponse {
    /// A character encoding for text bodies, named by a `charset` parameter such as `text/plain; charset=iso-8859-1`.
    ///
    /// Decoding is strict: bytes that are not valid in the charset are an error, never replaced or trapped on.
    public enum Charset: Sendable, Hashable {
        /// UTF-8 (a leading byte order mark is dropped). The default when a response names no charset.
        case utf8
        /// US-ASCII: bytes 0–127 only.
        case usASCII
        /// ISO-8859-1 (Latin-1): every byte is the Unicode scalar of the same number.
        case isoLatin1
        /// UTF-16 with a byte order mark, big-endian without one (RFC 2781).
        case utf16
        /// UTF-16 little-endian.
        case utf16LittleEndian
        /// UTF-16 big-endian.
        case utf16BigEndian

        /// The charset a label names (`utf-8`, `UTF8`, `us-ascii`, `ascii`, `iso-8859-1`, `latin1`, `utf-16`,
        /// `utf-16le`, `utf-16be`, …; case and surrounding quotes ignored), or `nil` for one not supported.
        package init?(label: String) {
            let trimmed = label.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
            switch trimmed.lowercased() {
            case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
            case "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us": self = .usASCII
            case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819":
                self = .isoLatin1
            case "utf-16", "utf16": self = .utf16
            case "utf-16le", "utf16le": self = .utf16LittleEndian
            case "utf-16be", "utf16be": self = .utf16BigEndian
            default: return nil
            }
        }

        /// The text `data` holds, or `nil` when it is not valid in this charset.
        package func decode(_ data: Data) -> String? {
            switch self {
            case .utf8:
                let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
                return Self.decode(bytes, as: UTF8.self)
            case .usASCII:
                guard data.allSatisfy({ $0 < 0x80 }) else { return nil }
                return String(decoding: data, as: UTF8.self)
            case .isoLatin1:
                return String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
            case .utf16:
                if data.starts(with: [0xFF, 0xFE]) { return Self.decodeUTF16(data.dropFirst(2), bigEndian: false) }
                if data.starts(with: [0xFE, 0xFF]) { return Self.decodeUTF16(data.dropFirst(2), bigEndian: true) }
                return Self.decodeUTF16(data[...], bigEndian: true)
            case .utf16LittleEndian:
                return Self.decodeUTF16(
                    data.starts(with: [0xFF, 0xFE]) ? data.dropFirst(2) : data[...], bigEndian: false)
            case .utf16BigEndian:
                return Self.decodeUTF16(
                    data.starts(with: [0xFE, 0xFF]) ? data.dropFirst(2) : data[...], bigEndian: true)
            }
        }

        private static func decodeUTF16(_ bytes: Data.SubSequence, bigEndian: Bool) -> String? {
            guard bytes.count % 2 == 0 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let first = UInt16(bytes[index])
                let second = UInt16(bytes[index + 1])
                units.append(bigEndian ? first << 8 | second : second << 8 | first)
                index += 2
            }
            return decode(units, as: UTF16.self)
        }

        private static func decode<Units: Collection, Codec: UnicodeCodec>(_ units: Units, as codec: Codec.Type)
            -> String?
        where Units.Element == Codec.CodeUnit {
            var iterator = units.makeIterator()
            var decoder = Codec()
            var scalars = String.UnicodeScalarView()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return String(scalars)
                case .error: return nil
                }
            }
        }
    }
}
