import Foundation

/// A strict `multipart/form-data` reader for tests: it fails on anything that is not exactly the expected framing.
enum MultipartParser {
    struct Part: Equatable {
        var headers: [String]
        var content: Data

        var disposition: String? { header("Content-Disposition") }
        var contentType: String? { header("Content-Type") }

        func header(_ name: String) -> String? {
            let prefix = name.lowercased() + ": "
            return headers.first { $0.lowercased().hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ body: Data, boundary: String) throws -> [Part] {
        if body == Data("--\(boundary)--\r\n".utf8) { return [] }
        let opening = Data("--\(boundary)\r\n".utf8)
        guard body.starts(with: opening) else { throw Malformed(description: "no opening delimiter") }
        let separator = Data("\r\n--\(boundary)".utf8)
        var cursor = body.startIndex + opening.count
        var parts: [Part] = []
        while true {
            guard let next = body.range(of: separator, in: cursor..<body.endIndex) else {
                throw Malformed(description: "no delimiter after part \(parts.count)")
            }
            let raw = body[cursor..<next.lowerBound]
            guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else {
                throw Malformed(description: "no blank line in part \(parts.count)")
            }
            let headerText = String(decoding: raw[raw.startIndex..<end.lowerBound], as: UTF8.self)
            parts.append(
                Part(headers: headerText.components(separatedBy: "\r\n"), content: Data(raw[end.upperBound...]))
            )
            let rest = body[next.upperBound...]
            if rest.elementsEqual(Data("--\r\n".utf8)) { return parts }
            guard rest.starts(with: Data("\r\n".utf8)) else { throw Malformed(description: "bad delimiter line") }
            cursor = next.upperBound + 2
        }
    }
}
