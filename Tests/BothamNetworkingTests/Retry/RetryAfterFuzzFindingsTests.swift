import BothamNetworking
import Foundation
import Testing

/// Inputs `Fuzz/FuzzRetryAfter` found, kept as regressions: on Linux, `DateFormatter.date(from:)`
/// (swift-corelibs-foundation) traps ("Incorrect range CFRange…") on a string whose parsed range ends inside a
/// character, so a server could crash the process with one `Retry-After` header.
@Suite("Retry-After: fuzz findings", .timeLimit(.minutes(1)))
struct RetryAfterFuzzFindingsTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(
        "a value that is not printable ASCII is no date, and never traps",
        arguments: [
            // The fuzzer's input: a combining mark after the minutes' colon of an RFC 850 date.
            "Sunday, 06-Nov-94 08:\u{33F}:37$GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT\u{301}", "Sun, 06 Nov 1994 08:4\u{301}9:37 GMT",
            "Sun Nov  6 08:49:37 1994\r\n", "Sun, 06 Nov 1994 08:49:37 G\u{0}MT", "\u{1F600}",
        ])
    func notADate(value: String) {
        #expect(RetryAfter.httpDate(value) == nil)
        #expect(RetryAfter.delay(from: value, now: Self.now) == nil)
    }

    @Test("the three HTTP-date forms still parse")
    func forms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == expected)
    }

    @Test("a two-digit year is read as at most 50 years after the response arrived (RFC 9110 §5.6.7)")
    func twoDigitYears() {
        // Received in 2023: "74" is 2074 at the latest, so 1974 (in the past: no delay); "73" is 2073.
        let received = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(from: "Sunday, 06-Nov-74 08:49:37 GMT", now: received) == .zero)
        let delay = RetryAfter.delay(from: "Monday, 06-Nov-73 08:49:37 GMT", now: received)
        #expect(delay.map { $0 > .seconds(40 * 365 * 86_400) } == true, "\(String(describing: delay))")
    }
}
