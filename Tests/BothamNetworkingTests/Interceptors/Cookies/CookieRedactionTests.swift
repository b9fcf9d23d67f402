import BothamNetworking
import Foundation
import Testing

@Suite("A cookie's value never appears in its descriptions", .timeLimit(.minutes(1)))
struct CookieRedactionTests {
    static let secret = "s3cr3t-session-id"

    @Test("dump, interpolation, description and String(reflecting:) show the replacement, not the value")
    func valueIsHidden() throws {
        let cookie = CookieJar.Cookie(
            name: "session", value: Self.secret, domain: "example.com", path: "/api", isSecure: true,
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        var dumped = ""
        dump(cookie, to: &dumped)
        var dumpedList = ""
        dump([cookie], to: &dumpedList)
        let texts = [
            "\(cookie)", cookie.description, String(describing: cookie),
            String(reflecting: cookie), dumped, dumpedList, "\([cookie])",
        ]
        for text in texts {
            #expect(!text.contains(Self.secret), "leaked in \(text)")
            #expect(text.contains(Redactor.default.replacement) && text.contains("session"), "in \(text)")
        }
        #expect(dumped.contains("example.com") && dumped.contains("/api"))
    }

    @Test("a jar's cookies are hidden too when printed")
    func jarCookiesAreHidden() {
        let jar = CookieTest.jar()
        jar.store(["id=\(Self.secret); Max-Age=60"], from: CookieTest.url("https://www.example.com/"))
        var dumped = ""
        dump(jar.allCookies, to: &dumped)
        #expect(jar.allCookies.count == 1)
        #expect(!dumped.contains(Self.secret) && !"\(jar.allCookies)".contains(Self.secret))
    }
}
