import BothamNetworking
import Foundation
import Testing

@Suite("Cookie domain, path and Secure matching", .timeLimit(.minutes(1)))
struct CookieMatchingTests {
    @Test("a Domain cookie reaches subdomains (leading dot ignored); a host-only one only its host")
    func domainMatching() {
        let jar = CookieTest.jar()
        jar.store(["wide=1; Domain=.example.com", "narrow=2"], from: CookieTest.url("https://api.example.com/"))
        #expect(jar.cookieHeader(for: CookieTest.url("https://api.example.com/")) == "wide=1; narrow=2")
        #expect(jar.cookieHeader(for: CookieTest.url("https://v2.api.example.com/")) == "wide=1")
        #expect(jar.cookieHeader(for: CookieTest.url("https://example.com/")) == "wide=1")
        #expect(jar.cookieHeader(for: CookieTest.url("https://notexample.com/")) == nil)
    }

    @Test("a Domain the host does not domain-match is rejected")
    func foreignDomainRejected() {
        let jar = CookieTest.jar()
        jar.store(
            ["a=1; Domain=other.com", "b=2; Domain=v2.api.example.com"],
            from: CookieTest.url("https://api.example.com/"))
        #expect(jar.allCookies.isEmpty)
    }

    @Test("an IP host never domain-matches: only Domain equal to the address, as a host-only cookie")
    func ipHosts() throws {
        let jar = CookieTest.jar()
        let url = CookieTest.url("http://127.0.0.1:8080/")
        jar.store(["a=1; Domain=0.0.1", "b=2; Domain=127.0.0.1", "c=3"], from: url)
        #expect(Set(jar.allCookies.map(\.name)) == ["b", "c"])
        #expect(jar.allCookies.filter { !$0.isHostOnly }.isEmpty)
        #expect(jar.cookieHeader(for: url) == "b=2; c=3")
    }

    @Test("path matching: the same path, or a prefix ending at /; longer paths are sent first")
    func pathMatching() {
        let jar = CookieTest.jar()
        let url = CookieTest.url("https://www.example.com/")
        jar.store(["root=1; Path=/", "api=2; Path=/api", "v1=3; Path=/api/v1/"], from: url)
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/api/v1/items")) == "v1=3; api=2; root=1")
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/api")) == "api=2; root=1")
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/apis")) == "root=1")
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/api/v1")) == "api=2; root=1")
    }

    @Test("a Secure cookie is sent over https only, and http cannot set one nor replace one")
    func secure() {
        let jar = CookieTest.jar()
        jar.store(["token=s; Secure"], from: CookieTest.url("https://www.example.com/"))
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.example.com/")) == "token=s")
        #expect(jar.cookieHeader(for: CookieTest.url("http://www.example.com/")) == nil)
        jar.store(["token=plain", "other=1; Secure"], from: CookieTest.url("http://www.example.com/"))
        #expect(jar.allCookies.map(\.value) == ["s"])
    }

    @Test("a host is matched as Origin normalises it, trailing dots dropped; IPv6 literals match themselves only")
    func hostNormalisation() {
        let jar = CookieTest.jar()
        jar.store(["a=1; Domain=example.com"], from: CookieTest.url("https://API.Example.COM./"))
        #expect(jar.allCookies.map(\.domain) == ["example.com"])
        #expect(jar.cookieHeader(for: CookieTest.url("https://www.EXAMPLE.com../")) == "a=1")
        let ipv6 = CookieTest.url("http://[::1]:8080/")
        jar.store(["b=2", "c=3; Domain=1"], from: ipv6)
        #expect(jar.cookieHeader(for: ipv6) == "b=2")
        #expect(jar.allCookies.first { $0.name == "b" }?.domain == "::1")
        #expect(jar.cookieHeader(for: CookieTest.url("http://[::2]:8080/")) == nil)
    }

    @Test("a URL without an http or https origin neither sets nor gets cookies")
    func noOrigin() {
        let jar = CookieTest.jar()
        jar.store(["a=1"], from: CookieTest.url("ftp://www.example.com/"))
        jar.store(["b=2"], from: CookieTest.url("https://./"))
        #expect(jar.allCookies.isEmpty)
        jar.store(["c=3"], from: CookieTest.url("https://www.example.com/"))
        #expect(jar.cookieHeader(for: CookieTest.url("ftp://www.example.com/")) == nil)
        let cookie = CookieJar.Cookie(name: "c", value: "3", domain: "www.example.com")
        #expect(!cookie.matches(CookieTest.url("ws://www.example.com/")))
        #expect(cookie.matches(CookieTest.url("https://www.example.com/")))
    }
}
