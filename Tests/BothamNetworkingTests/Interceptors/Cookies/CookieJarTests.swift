import BothamNetworking
import Foundation
import Testing

@Suite("Cookie jar: expiry, replacement, limits and persistence", .timeLimit(.minutes(1)))
struct CookieJarTests {
    let site = CookieTest.url("https://www.example.com/")

    @Test("a cookie stops being sent when the injected clock passes its expiry")
    func expiry() {
        let clock = CookieTestClock()
        let jar = CookieTest.jar(clock)
        jar.store(["short=1; Max-Age=10", "session=2"], from: site)
        #expect(jar.cookieHeader(for: site) == "short=1; session=2")
        clock.advance(by: 9)
        #expect(jar.cookieHeader(for: site) == "short=1; session=2")
        clock.advance(by: 1)
        #expect(jar.cookieHeader(for: site) == "session=2")
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test("a cookie with the same name, domain and path replaces the stored one and keeps its creation time")
    func replacement() throws {
        let clock = CookieTestClock()
        let jar = CookieTest.jar(clock)
        jar.store(["a=1", "b=1"], from: site)
        let created = try #require(jar.allCookies.first { $0.name == "a" }).createdAt
        clock.advance(by: 5)
        jar.store(["a=2"], from: site)
        let replaced = try #require(jar.allCookies.first { $0.name == "a" })
        #expect(replaced.value == "2" && replaced.createdAt == created)
        #expect(jar.cookieHeader(for: site) == "a=2; b=1")
    }

    @Test("over the per-domain limit the oldest cookie of that domain goes; over the total, the oldest of all")
    func eviction() {
        let clock = CookieTestClock()
        let jar = CookieTest.jar(clock, limits: .init(perDomain: 3, total: 5))
        for index in 1...4 {
            jar.store(["a\(index)=x"], from: CookieTest.url("https://a.example.com/"))
            clock.advance(by: 1)
        }
        #expect(jar.allCookies.map(\.name) == ["a2", "a3", "a4"])
        for index in 1...3 {
            jar.store(["b\(index)=x"], from: CookieTest.url("https://b.example.com/"))
            clock.advance(by: 1)
        }
        #expect(jar.allCookies.map(\.name) == ["a3", "a4", "b1", "b2", "b3"])
    }

    @Test("expired cookies are evicted before older live ones")
    func expiredEvictedFirst() {
        let clock = CookieTestClock()
        let jar = CookieTest.jar(clock, limits: .init(perDomain: 2))
        jar.store(["old=1"], from: site)
        clock.advance(by: 1)
        jar.store(["brief=1; Max-Age=1"], from: site)
        clock.advance(by: 2)
        jar.store(["new=1"], from: site)
        #expect(jar.allCookies.map(\.name) == ["old", "new"])
    }

    @Test("a file jar writes its persistent cookies, not session ones, and a new jar loads them")
    func persistenceRoundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let clock = CookieTestClock()

        let jar = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, now: { clock.now })
        jar.store(
            ["kept=1; Max-Age=3600; Domain=example.com; Path=/api; Secure; HttpOnly; SameSite=Lax", "session=2"],
            from: site)
        #expect(jar.lastSaveError == nil)
        #expect(FileManager.default.fileExists(atPath: file.path))

        let reloaded = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, now: { clock.now })
        let cookie = try #require(reloaded.allCookies.first)
        #expect(reloaded.allCookies.count == 1)
        #expect(cookie.name == "kept" && cookie.value == "1" && cookie.domain == "example.com" && !cookie.isHostOnly)
        #expect(cookie.path == "/api" && cookie.isSecure && cookie.isHTTPOnly && cookie.sameSite == .lax)
        let expiry = try #require(cookie.expiresAt)
        #expect(abs(expiry.timeIntervalSince(clock.now.addingTimeInterval(3600))) < 0.001)

        clock.advance(by: 3600)
        let afterExpiry = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, now: { clock.now })
        #expect(afterExpiry.allCookies.isEmpty)
    }

    @Test("a file that is not a jar's fails the jar's creation")
    func corruptFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).json")
        try Data("not json".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: (any Error).self) { try CookieJar(persistingTo: file) }
    }
}
