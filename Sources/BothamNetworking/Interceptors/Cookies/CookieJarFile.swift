import Foundation

/// A jar's file: a JSON object with a format version and the persistent cookies, written atomically.
enum CookieJarFile {
    private struct Contents: Codable {
        var version: Int
        var cookies: [Cookie]
    }

    /// The cookies in `url`, or none when the file does not exist.
    static func load(from url: URL) throws -> [Cookie] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let data = try Data(contentsOf: url)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Contents.self, from: data).cookies
    }

    /// Writes `cookies` (oldest first) to `url` atomically: a reader sees the old file or the new one, never a part.
    static func save(_ cookies: [Cookie], to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let contents = Contents(version: 1, cookies: cookies.sorted { $0.createdAt < $1.createdAt })
        try encoder.encode(contents).write(to: url, options: .atomic)
    }
}
