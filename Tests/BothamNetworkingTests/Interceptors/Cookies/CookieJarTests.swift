import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Cookie jar: expiry, replacement, limits and persistence", .timeLimit(.minutes(1)))
struct CookieJarTests {
    let site = CookieTest.url("https://www.example.com/")

    @Test("a cookie stops being sent when the injected clock passes its expiry")
    func expiry() async {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock)
        jar.store(["short=1; Max-Age=10", "session=2"], from: site)
        #expect(jar.cookieHeader(for: site) == "short=1; session=2")
        await clock.advance(by: .seconds(9))
        #expect(jar.cookieHeader(for: site) == "short=1; session=2")
        await clock.advance(by: .seconds(1))
        #expect(jar.cookieHeader(for: site) == "session=2")
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test("a cookie with the same name, domain and path replaces the stored one and keeps its creation time")
    func replacement() async throws {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock)
        jar.store(["a=1", "b=1"], from: site)
        let created = try #require(jar.allCookies.first { $0.name == "a" }).createdAt
        await clock.advance(by: .seconds(5))
        jar.store(["a=2"], from: site)
        let replaced = try #require(jar.allCookies.first { $0.name == "a" })
        #expect(replaced.value == "2" && replaced.createdAt == created)
        #expect(jar.cookieHeader(for: site) == "a=2; b=1")
    }

    @Test("over the per-domain limit the oldest cookie of that domain goes; over the total, the oldest of all")
    func eviction() async {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock, limits: .init(perDomain: 3, total: 5))
        for index in 1...4 {
            jar.store(["a\(index)=x"], from: CookieTest.url("https://a.example.com/"))
            await clock.advance(by: .seconds(1))
        }
        #expect(jar.allCookies.map(\.name) == ["a2", "a3", "a4"])
        for index in 1...3 {
            jar.store(["b\(index)=x"], from: CookieTest.url("https://b.example.com/"))
            await clock.advance(by: .seconds(1))
        }
        #expect(jar.allCookies.map(\.name) == ["a3", "a4", "b1", "b2", "b3"])
    }

    @Test("expired cookies are evicted before older live ones")
    func expiredEvictedFirst() async {
        let clock = CookieTest.clock()
        let jar = CookieTest.jar(clock, limits: .init(perDomain: 2))
        jar.store(["old=1"], from: site)
        await clock.advance(by: .seconds(1))
        jar.store(["brief=1; Max-Age=1"], from: site)
        await clock.advance(by: .seconds(2))
        jar.store(["new=1"], from: site)
        #expect(jar.allCookies.map(\.name) == ["old", "new"])
    }

    @Test("a file jar writes its persistent cookies, not session ones, and a new jar loads them")
    func persistenceRoundTrip() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let clock = CookieTest.clock()

        let jar = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        jar.store(
            ["kept=1; Max-Age=3600; Domain=example.com; Path=/api; Secure; HttpOnly; SameSite=Lax", "session=2"],
            from: site)
        #expect(jar.lastSaveError == nil)
        #expect(FileManager.default.fileExists(atPath: file.path))

        let reloaded = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        let cookie = try #require(reloaded.allCookies.first)
        #expect(reloaded.allCookies.count == 1)
        #expect(cookie.name == "kept" && cookie.value == "1" && cookie.domain == "example.com" && !cookie.isHostOnly)
        #expect(cookie.path == "/api" && cookie.isSecure && cookie.isHTTPOnly && cookie.sameSite == .lax)
        let expiry = try #require(cookie.expiresAt)
        #expect(abs(expiry.timeIntervalSince(clock.currentDate.addingTimeInterval(3600))) < 0.001)

        await clock.advance(by: .seconds(3600))
        let afterExpiry = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        #expect(afterExpiry.allCookies.isEmpty)
    }

    @Test("a file that is not a jar's fails the jar's creation")
    func corruptFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString).json")
        try Data("not json".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: (any Error).self) { try CookieJar(persistingTo: file) }
    }

    @Test("a file jar writes its file only when the persistent cookies change, never for session cookies alone")
    func writesOnlyPersistentChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let clock = CookieTest.clock()
        let jar = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)

        jar.store(["session=1"], from: site)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        jar.store(["kept=1; Max-Age=3600"], from: site)
        #expect(FileManager.default.fileExists(atPath: file.path))

        try FileManager.default.removeItem(at: file)
        jar.store(["session=2", "other=3"], from: site)
        #expect(!FileManager.default.fileExists(atPath: file.path), "only session cookies changed")
        jar.store(["kept=2; Max-Age=3600"], from: site)
        let reloaded = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        #expect(reloaded.allCookies.map(\.value) == ["2"])

        jar.store(["kept=; Max-Age=0"], from: site)
        let afterDeletion = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        #expect(afterDeletion.allCookies.isEmpty)
        #expect(jar.lastSaveError == nil)
    }

    @Test("concurrent stores leave the file with every persistent cookie: an older snapshot never overwrites a newer")
    func concurrentSaves() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let clock = CookieTest.clock()
        let jar = try CookieJar(
            persistingTo: file, limits: .init(perDomain: 100), publicSuffixes: CookieTest.suffixes, clock: clock)
        let site = self.site
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask { jar.store(["c\(index)=\(index); Max-Age=3600", "s\(index)=x"], from: site) }
            }
        }
        #expect(jar.lastSaveError == nil)
        let reloaded = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes, clock: clock)
        #expect(Set(reloaded.allCookies.map(\.name)) == Set((0..<40).map { "c\($0)" }))
    }

    @Test("removeAll writes the empty jar, even when it held session cookies only")
    func removeAllWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.json")
        let jar = try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes)
        jar.store(["session=1"], from: site)
        jar.removeAll()
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try CookieJar(persistingTo: file, publicSuffixes: CookieTest.suffixes).allCookies.isEmpty)
    }

    @Test("eviction over one domain's limit leaves the other domains alone")
    func evictionIsPerDomain() {
        let jar = CookieTest.jar(limits: .init(perDomain: 2, total: 100))
        jar.store(["a=1", "b=2"], from: CookieTest.url("https://one.example.com/"))
        jar.store(["c=3", "d=4", "e=5"], from: CookieTest.url("https://two.example.com/"))
        #expect(jar.allCookies.map(\.name) == ["a", "b", "d", "e"])
        jar.store(["f=6"], from: CookieTest.url("https://one.example.com/"))
        #expect(jar.allCookies.map(\.name) == ["b", "d", "e", "f"])
    }
}
