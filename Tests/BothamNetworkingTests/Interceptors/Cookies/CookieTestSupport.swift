import BothamNetworking
import BothamNetworkingTesting
import Foundation

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

    /// A virtual clock for cookie expiry, at a fixed date; it moves only when the test advances it.
    static func clock() -> VirtualClock {
        VirtualClock(startDate: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static func jar(_ clock: VirtualClock = CookieTest.clock(), limits: CookieJar.Limits = .init()) -> CookieJar {
        CookieJar(limits: limits, publicSuffixes: suffixes, clock: clock)
    }
}
