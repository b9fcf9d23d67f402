import BothamNetworking
import Foundation
import Testing

@Suite("Public suffixes", .timeLimit(.minutes(1)))
struct PublicSuffixListTests {
    @Test("rules, wildcards, exceptions and the implicit * rule of an injected list")
    func injectedRules() {
        let list = CookieTest.suffixes
        #expect(list.isPublicSuffix("com") && list.isPublicSuffix("co.uk") && list.isPublicSuffix("github.io"))
        #expect(list.isPublicSuffix("anything.ck") && !list.isPublicSuffix("www.ck"))
        #expect(list.isPublicSuffix("localhost"))  // one label: the implicit * rule
        #expect(!list.isPublicSuffix("example.com") && !list.isPublicSuffix("bbc.co.uk"))
        #expect(list.count == 5)
    }

    @Test("a Domain that is a public suffix is rejected, unless it is the host itself (then host-only)")
    func publicSuffixRejected() throws {
        let jar = CookieTest.jar()
        jar.store(["a=1; Domain=co.uk"], from: CookieTest.url("https://bbc.co.uk/"))
        jar.store(["b=2; Domain=github.io"], from: CookieTest.url("https://someone.github.io/"))
        #expect(jar.allCookies.isEmpty)
        jar.store(["c=3; Domain=github.io"], from: CookieTest.url("https://github.io/"))
        let cookie = try #require(jar.allCookies.first)
        #expect(cookie.isHostOnly && cookie.domain == "github.io")
        #expect(jar.cookieHeader(for: CookieTest.url("https://someone.github.io/")) == nil)
    }

    @Test("the built-in list covers the common suffixes")
    func builtIn() {
        let list = PublicSuffixList.builtIn
        for suffix in ["com", "net", "org", "co.uk", "github.io"] { #expect(list.isPublicSuffix(suffix)) }
        #expect(!list.isPublicSuffix("example.com"))
    }

    @Test(
        "the system list, when Debian's publicsuffix package is installed, is the default and knows more",
        .enabled(if: PublicSuffixList.system != nil, "no \(PublicSuffixList.systemListPath) on this machine"))
    func systemList() throws {
        let system = try #require(PublicSuffixList.system)
        #expect(PublicSuffixList.system != nil && PublicSuffixList.default == system)
        #expect(system.count > 5000)
        #expect(system.isPublicSuffix("com") && system.isPublicSuffix("co.uk") && system.isPublicSuffix("pages.dev"))
        #expect(system.isPublicSuffix("anything.kawasaki.jp") && !system.isPublicSuffix("city.kawasaki.jp"))
        #expect(!system.isPublicSuffix("example.com"))
    }
}
