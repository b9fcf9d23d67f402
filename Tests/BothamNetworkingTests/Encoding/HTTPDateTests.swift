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
