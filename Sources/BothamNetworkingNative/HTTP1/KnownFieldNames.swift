import BothamNetworking
import Foundation

/// Field names servers commonly send, built once: a header line whose name is spelled exactly like one of them (in
/// its usual capitalisation or all lower case) reuses it instead of building and lower-casing a new
/// `HTTPFieldName`. The spelling is kept: a name read as `content-type` stays `content-type`.
enum KnownFieldNames {
    private static let spellings = [
        "Server", "Date", "Content-Type", "Content-Length", "Last-Modified", "Connection", "ETag", "Accept-Ranges",
        "Transfer-Encoding", "Content-Encoding", "Cache-Control", "Vary", "Expires", "Set-Cookie", "Location",
        "Keep-Alive", "Age", "Pragma", "Link", "Via", "Alt-Svc", "Retry-After", "WWW-Authenticate",
        "Content-Disposition", "Content-Language", "Content-Range", "Access-Control-Allow-Origin",
        "Access-Control-Allow-Credentials", "Strict-Transport-Security", "Content-Security-Policy",
        "X-Content-Type-Options", "X-Frame-Options", "X-XSS-Protection", "Referrer-Policy", "X-Request-Id",
        "X-Powered-By",
    ]

    /// The known names by the length of their spelling: `table[n]` holds the names of n bytes.
    private static let table: [[(spelling: [UInt8], name: HTTPFieldName)]] = {
        let all = spellings.flatMap { [$0, $0.lowercased()] }
        var table = Array(
            repeating: [(spelling: [UInt8], name: HTTPFieldName)](), count: 1 + (all.map(\.utf8.count).max() ?? 0))
        for spelling in Set(all) { table[spelling.utf8.count].append((Array(spelling.utf8), HTTPFieldName(spelling))) }
        return table
    }()

    /// Every prebuilt name, in both spellings. Each is a token, which the parser relies on to skip checking a known
    /// name's bytes.
    static var all: [HTTPFieldName] { table.flatMap { $0.map(\.name) } }

    /// The prebuilt name spelled exactly as `bytes`, if there is one.
    static func name(spelled bytes: UnsafeBufferPointer<UInt8>) -> HTTPFieldName? {
        guard bytes.count < table.count else { return nil }
        guard let start = bytes.baseAddress else { return nil }
        for candidate in table[bytes.count]
        where candidate.spelling.withUnsafeBufferPointer({
            $0.baseAddress.map { memcmp($0, start, bytes.count) == 0 } ?? false
        }) {
            return candidate.name
        }
        return nil
    }
}
