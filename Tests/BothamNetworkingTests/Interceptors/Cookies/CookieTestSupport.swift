import BothamNetworking
import Foundation

/// A settable clock for cookie expiry.
final class CookieTestClock: Sendable {
    private let current: Lock<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Lock(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

enum CookieTest {
    /// The small list the tests inject, independent of the machine's system list.
    static let suffixes = PublicSuffixList(
        rules: """
            // a comment
            com
            co.uk
            github.io
            *.ck
            !www.ck
            """)

    static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    static func jar(_ clock: CookieTestClock = CookieTestClock(), limits: CookieJar.Limits = .init()) -> CookieJar {
        CookieJar(limits: limits, publicSuffixes: suffixes, now: { clock.now })
    }
}
