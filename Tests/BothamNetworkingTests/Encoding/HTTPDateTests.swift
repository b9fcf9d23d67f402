import Foundation
import Testing

@testable import BothamNetworking

@Suite("HTTP-date parsing: RFC 9110's three forms and the cookie-date variants", .timeLimit(.minutes(1)))
struct HTTPDateTests {
    static let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(
        "IMF-fixdate, the RFC 850 form and asctime all parse, as RFC 9110 §5.6.7 requires of a recipient",
        arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func rfc9110Forms(_ text: String) {
        #expect(HTTPDate.parse(text) == Self.expected)
        #expect(RetryAfter.httpDate(text) == Self.expected)
    }

    @Test("a two-digit year is 1970 to 2069")
    func twoDigitYears() {
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Friday, 31-Dec-69 23:59:59 GMT") == Date(timeIntervalSince1970: 3_155_759_999))
    }

    @Test("read for a message received at a time, a two-digit year is at most 50 years after it (RFC 9110 §5.6.7)")
    func twoDigitYearsAfterReceipt() {
        let in2023 = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(HTTPDate.parse("Tuesday, 14-Nov-23 22:13:20 GMT", receivedAt: in2023) == in2023)
        #expect(
            HTTPDate.parse("Sunday, 01-Jan-73 00:00:00 GMT", receivedAt: in2023)
                == HTTPDate.parse("Sun, 01 Jan 2073 00:00:00 GMT"))
        #expect(
            HTTPDate.parse("Tuesday, 01-Jan-74 00:00:00 GMT", receivedAt: in2023)
                == HTTPDate.parse("Tue, 01 Jan 1974 00:00:00 GMT"))
        let in2099 = Date(timeIntervalSince1970: 4_070_908_800)  // Thu, 01 Jan 2099 00:00:00 GMT
        #expect(
            HTTPDate.parse("Saturday, 01-Jan-01 00:00:00 GMT", receivedAt: in2099)
                == HTTPDate.parse("Sat, 01 Jan 2101 00:00:00 GMT"))
        #expect(
            HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT", receivedAt: in2023)
                == Date(timeIntervalSince1970: 951_825_600))
    }

    @Test("imfFixdate writes RFC 9110's preferred form, which parses back to the same second")
    func imfFixdate() {
        #expect(HTTPDate.imfFixdate(Self.expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.imfFixdate(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.imfFixdate(Date(timeIntervalSince1970: -0.5)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.imfFixdate(Date(timeIntervalSince1970: 951_825_600.9)) == "Tue, 29 Feb 2000 12:00:00 GMT")
        // Every 1000 days, 1 h and 7 s from 1601 to 9999: every day of the week, month and hour, leap years too.
        let mismatches = stride(from: -11_644_473_600, through: 253_402_300_799, by: 86_403_607).filter { seconds in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            return HTTPDate.parse(HTTPDate.imfFixdate(date)) != date
        }
        #expect(mismatches.isEmpty)
    }

    @Test("the last instant of 9999 and a leap day parse; an impossible day does not")
    func calendarEdges() {
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Tue, 29 Feb 2100 12:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
    }

    @Test("Retry-After delays come from the shared parser, whatever the form")
    func retryAfterUsesIt() {
        let now = Date(timeIntervalSince1970: 784_111_677)
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfter.delay(from: text, now: now) == .seconds(100))
        }
        #expect(RetryAfter.delay(from: "soon-ish", now: now) == nil)
    }
}
