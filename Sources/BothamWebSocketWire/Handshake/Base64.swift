/// Base64 (RFC 4648 §4, with padding) for the handshake's key and accept values, without Foundation.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64, padded.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let second = index + 1 < bytes.count ? bytes[index + 1] : 0
            let third = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(first >> 2)])
            output.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            output.append(
                index + 1 < bytes.count ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of padded base64 `text`, or nil when it is not canonical base64 (wrong length, characters outside
    /// the alphabet, misplaced padding, non-zero bits in the padding).
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < characters.count {
            let isLast = index + 4 == characters.count
            var values: [UInt8] = []
            var padding = 0
            for character in characters[index..<(index + 4)] {
                if character == UInt8(ascii: "=") {
                    padding += 1
                    values.append(0)
                    continue
                }
                guard padding == 0, let value = alphabet.firstIndex(of: character) else { return nil }
                values.append(UInt8(value))
            }
            guard padding <= 2, padding == 0 || isLast else { return nil }
            output.append(values[0] << 2 | values[1] >> 4)
            if padding < 2 { output.append(values[1] << 4 | values[2] >> 2) }
            if padding < 1 { output.append(values[2] << 6 | values[3]) }
            if padding == 2 && values[1] & 0x0F != 0 { return nil }
            if padding == 1 && values[2] & 0x03 != 0 { return nil }
            index += 4
        }
        return output
    }
}
