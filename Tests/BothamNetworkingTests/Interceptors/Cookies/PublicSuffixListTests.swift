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

    @Test("a rule with Unicode labels also matches the Punycode form hosts carry, and a cookie for it is rejected")
    func internationalizedRules() throws {
        let list = PublicSuffixList(rules: "公司.cn\n*.个人.hk\nрф\n!www.个人.hk")
        #expect(list.isPublicSuffix("公司.cn") && list.isPublicSuffix("xn--55qx5d.cn"))
        #expect(list.isPublicSuffix("xn--p1ai"))  // рф
        #expect(list.isPublicSuffix("anyone.xn--ciqpn.hk") && !list.isPublicSuffix("www.xn--ciqpn.hk"))  // 个人.hk
        #expect(!list.isPublicSuffix("example.xn--55qx5d.cn"))
        let jar = CookieJar(publicSuffixes: list)
        jar.store(["a=1; Domain=xn--55qx5d.cn"], from: CookieTest.url("https://shop.xn--55qx5d.cn/"))
        jar.store(["b=2"], from: CookieTest.url("https://shop.xn--55qx5d.cn/"))
        #expect(jar.cookies(for: CookieTest.url("https://other.xn--55qx5d.cn/")).isEmpty, "no cookie for the suffix")
        #expect(jar.cookies(for: CookieTest.url("https://shop.xn--55qx5d.cn/")).map(\.name) == ["b"])
    }

    @Test("Punycode encodes the RFC 3492 examples and common IDN labels")
    func punycode() {
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.asciiLabel("公司") == "xn--55qx5d")
        #expect(Punycode.asciiLabel("中国") == "xn--fiqs8s")
        #expect(Punycode.asciiLabel("рф") == "xn--p1ai")
        #expect(Punycode.asciiLabel("example") == "example")
        // RFC 3492 §7.1 (B): Chinese (simplified)
        #expect(Punycode.encode("他们为什么不说中文") == "ihqwcrb4cv8a8dqg056pqjye")
    }

    @Test("without the system file the built-in list is used; with it, the file's rules")
    func systemFileOrBuiltIn() throws {
        let missing = "/nonexistent/botham-\(UUID().uuidString).dat"
        #expect(PublicSuffixList.systemOrBuiltIn(at: missing) == PublicSuffixList.builtIn)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("psl-\(UUID().uuidString).dat")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("// a list\nexample\n".utf8).write(to: file)
        let loaded = PublicSuffixList.systemOrBuiltIn(at: file.path)
        #expect(loaded.count == 1 && loaded.isPublicSuffix("example") && !loaded.isPublicSuffix("co.uk.example"))
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
