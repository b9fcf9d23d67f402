import BothamNetworkingTesting
import Foundation
import Testing

@testable import BothamNetworking

@Suite("Set-Cookie parsing follows RFC 6265bis", .timeLimit(.minutes(1)))
struct CookieParsingTests {
    let site = CookieTest.url("https://www.example.com/docs/index.html")

    @Test("the §3.1 examples: a session cookie, a Secure HttpOnly one and a Domain one are all sent back in order")
    func rfcExamples() throws {
        let jar = CookieTest.jar()
        jar.store(["SID=31d4d96e407aad42"], from: site)
        let sid = try #require(jar.allCookies.first)
        #expect(sid.isHostOnly && sid.domain == "www.example.com" && sid.path == "/docs" && !sid.isPersistent)

        jar.removeAll()
        jar.store(["SID=31d4d96e407aad42; Path=/; Secure; HttpOnly"], from: site)
        jar.store(["lang=en-US; Path=/; Domain=example.com"], from: site)
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/")) == "SID=31d4d96e407aad42; lang=en-US")
        #expect(jar.cookieHeader(for: CookieTest.url("https://docs.example.com/")) == "lang=en-US")
        let secure = try #require(jar.allCookies.first { $0.name == "SID" })
        #expect(secure.isSecure && secure.isHTTPOnly)
    }

    @Test("an Expires date in the past deletes the cookie of the same name, domain and path")
    func expiresInThePastDeletes() {
        let jar = CookieTest.jar()
        jar.store(["lang=en-US; Path=/; Domain=example.com"], from: site)
        jar.store(["lang=; Path=/; Domain=example.com; Expires=Sun, 06 Nov 1994 08:49:37 GMT"], from: site)
        #expect(jar.allCookies.isEmpty)
    }

    @Test(
        "every HTTP-date form of Expires is read as UTC",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "6 nov 1994 8:49:37", "Sun, 06-Nov-1994 08:49:37 UTC",
        ])
    func httpDateForms(_ text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("impossible dates are no dates", arguments: ["Sun, 31 Feb 2026 08:00:00 GMT", "06 Nov 1994", "soon", ""])
    func invalidDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("Max-Age wins over Expires, whatever their order, and zero or less expires at once")
    func maxAgeWins() throws {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock)
        jar.store(["a=1; Max-Age=60; Expires=Wed, 09 Jun 2100 10:18:14 GMT"], from: site)
        jar.store(["b=2; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60"], from: site)
        for cookie in jar.allCookies { #expect(cookie.expiresAt == clock.currentDate.addingTimeInterval(60)) }
        jar.store(["a=1; Max-Age=0", "b=2; Max-Age=-5"], from: site)
        #expect(jar.allCookies.isEmpty)
    }

    @Test("Max-Age and Expires are capped at 400 days")
    func lifetimeCap() throws {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock)
        jar.store(["a=1; Max-Age=999999999"], from: site)
        let cookie = try #require(jar.allCookies.first)
        #expect(cookie.expiresAt == clock.currentDate.addingTimeInterval(400 * 86_400))
    }

    @Test("SameSite is parsed and stored; an unknown value is none")
    func sameSite() {
        let jar = CookieTest.jar()
        jar.store(
            ["a=1; SameSite=strict", "b=2; SameSite=Lax", "c=3; SameSite=None; Secure", "d=4; SameSite=x"], from: site)
        let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.sameSite?.rawValue ?? "-") })
        #expect(byName == ["a": "Strict", "b": "Lax", "c": "None", "d": "-"])
    }

    @Test("a field without = is a nameless cookie; an empty one, a control character or over 4096 bytes is ignored")
    func nameValueLimits() {
        let jar = CookieTest.jar()
        jar.store(["justavalue", "=", "", "a=b\u{01}c", "big=" + String(repeating: "x", count: 4094)], from: site)
        #expect(jar.allCookies.map(\.value) == ["justavalue"])
        jar.store(["fits=" + String(repeating: "x", count: 4092)], from: site)
        #expect(jar.allCookies.count == 2)
        #expect(jar.cookieHeader(for: site)?.hasPrefix("justavalue; fits=") == true)
    }

    @Test("a Path that does not start with / falls back to the default path")
    func defaultPath() {
        let jar = CookieTest.jar()
        jar.store(["a=1; Path=relative", "b=2; Path=/api"], from: CookieTest.url("https://www.example.com/v1/items"))
        let paths = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.path) })
        #expect(paths == ["a": "/v1", "b": "/api"])
    }

    @Test("__Secure- needs Secure; __Host- needs Secure, no Domain and Path=/")
    func prefixes() {
        let jar = CookieTest.jar()
        jar.store(
            [
                "__Secure-a=1", "__Secure-b=2; Secure", "__Host-c=3; Secure", "__Host-d=4; Secure; Path=/",
                "__Host-e=5; Secure; Path=/; Domain=example.com", "__host-f=6; Path=/",
            ], from: CookieTest.url("https://www.example.com/"))
        #expect(Set(jar.allCookies.map(\.name)) == ["__Secure-b", "__Host-c", "__Host-d"])
    }
}
