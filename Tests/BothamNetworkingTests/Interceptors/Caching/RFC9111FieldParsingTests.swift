import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

/// How the cache reads the fields it parses — `Date`, `Age`, `Cache-Control`, `Expires`, `Vary`, `Pragma` — by RFC
/// 9111 §4–5 and RFC 9110 §5.3, §5.6 and §6.6.1, over `StubHTTPClient` and a virtual clock (which starts at
/// Tue, 14 Nov 2023 22:13:20 GMT).
@Suite("RFC 9111 §4–5, RFC 9110 §5.6 and §6.6.1: the fields the cache parses", .timeLimit(.minutes(1)))
struct RFC9111FieldParsingTests {
    /// Headers with repeated names, in order.
    static func fields(_ pairs: [(String, String)]) -> HTTPHeaders {
        HTTPHeaders(pairs.map { HTTPHeaders.Field(name: HTTPFieldName($0.0), value: $0.1) })
    }

    /// A harness whose `/item` answers `v1` with `headers`, then `v2` with `max-age=60`.
    static func harness(_ headers: HTTPHeaders) -> CacheHarness {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: headers), .text("v2", headers: ["Cache-Control": "max-age=60"]))
        return cache
    }

    /// Stores `/item` with `headers`, then says whether it is still served without a round trip after `seconds`.
    static func isFresh(_ headers: HTTPHeaders, after seconds: Int = 0) async throws -> Bool {
        let cache = harness(headers)
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(seconds))
        return try await cache.get().cacheStatus == .hit
    }

    // MARK: - Date (RFC 9110 §6.6.1, §5.6.7)

    @Test("§6.6.1 a response stored without Date gets one of its receipt time, which every hit serves")
    func missingDateIsAdded() async throws {
        let cache = Self.harness(["Cache-Control": "max-age=10"])
        let received = cache.date()
        let first = try await cache.get()
        await cache.clock.advance(by: .seconds(9))
        let hit = try await cache.get()
        #expect(first.headers["Date"] == received)
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers.values(for: "Date") == [received])
        #expect(hit.headers["Age"] == "9")
        await cache.clock.advance(by: .seconds(1))
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§6.6.1 a 304 without Date dates the updated response at its receipt, so its freshness counts from there")
    func notModifiedWithoutDateIsDated() async throws {
        let cache = CacheHarness()
        try await cache.storeStaleTaggedItem()
        let revalidatedAt = cache.date()
        let revalidated = try await cache.get()
        #expect(revalidated.cacheStatus == .revalidated)
        #expect(revalidated.headers.values(for: "Date") == [revalidatedAt])
        // The 304 says max-age=100: fresh for 100 s from the revalidation, not from the first response.
        await cache.clock.advance(by: .seconds(99))
        #expect(try await cache.get().cacheStatus == .hit)
        #expect(cache.sent.count == 2)
    }

    @Test("§6.6.1 a HEAD's 200 without Date that freshens a stored response dates it at its receipt")
    func headWithoutDateIsDated() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v1", headers: ["Cache-Control": "max-age=10", "ETag": #""a""#, "Content-Length": "2"]),
            .response(headers: ["Cache-Control": "max-age=100", "ETag": #""a""#, "Content-Length": "2"]))
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(20))
        let freshenedAt = cache.date()
        #expect(try await cache.head().cacheStatus == .miss)
        // max-age=100 from the HEAD's receipt, not from the first response.
        await cache.clock.advance(by: .seconds(99))
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers.values(for: "Date") == [freshenedAt])
        #expect(cache.sent.map(\.method) == [.get, .head])
    }

    @Test(
        "§5.6.7 Date in each HTTP-date form counts for the apparent age",
        arguments: [
            "Tue, 14 Nov 2023 22:11:40 GMT", "Tuesday, 14-Nov-23 22:11:40 GMT", "Tue Nov 14 22:11:40 2023",
        ])
    func dateForms(_ date: String) async throws {
        // 100 s old on arrival, max-age=150: fresh for 50 s more.
        let headers: HTTPHeaders = ["Cache-Control": "max-age=150", "Date": date]
        #expect(try await Self.isFresh(headers, after: 49))
        #expect(try await !Self.isFresh(headers, after: 50))
    }

    @Test(
        "§5.6.7 Expires in each HTTP-date form sets the freshness lifetime",
        arguments: [
            "Tue, 14 Nov 2023 23:13:20 GMT", "Tuesday, 14-Nov-23 23:13:20 GMT", "Tue Nov 14 23:13:20 2023",
        ])
    func expiresForms(_ expires: String) async throws {
        let headers: HTTPHeaders = ["Expires": expires]
        #expect(try await Self.isFresh(headers, after: 3599))
        #expect(try await !Self.isFresh(headers, after: 3600))
    }

    @Test("§5.6.7 a two-digit year is the latest year with those digits not more than 50 years after receipt")
    func twoDigitYears() async throws {
        // Received in 2023: 73 is 2073 (fresh for decades), 74 would be more than 50 years ahead and is 1974.
        #expect(try await Self.isFresh(["Expires": "Sunday, 01-Jan-73 00:00:00 GMT"], after: 86_400))
        #expect(try await !Self.isFresh(["Expires": "Tuesday, 01-Jan-74 00:00:00 GMT"]))
    }

    // MARK: - Age (RFC 9111 §5.1)

    @Test(
        "§5.1 an Age list, in one field or over several, is read as its first member",
        arguments: [
            (["7200, 0"], false), (["7200", "0"], false), (["0, 7200"], true), (["0", "7200"], true),
            ([", 7200"], false),
        ])
    func ageListFirstMember(_ ages: [String], isFresh: Bool) async throws {
        let headers = Self.fields([("Cache-Control", "max-age=3600")] + ages.map { ("Age", $0) })
        #expect(try await Self.isFresh(headers) == isFresh)
    }

    @Test(
        "§5.1 an Age that is not a non-negative integer is ignored",
        arguments: ["abc", "-7200", "7200.0", "", "+7200", "7200abc"])
    func invalidAgeIsIgnored(_ age: String) async throws {
        let cache = Self.harness(["Cache-Control": "max-age=3600", "Age": age])
        _ = try await cache.get()
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers.values(for: "Age") == ["0"])
    }

    // MARK: - Cache-Control (RFC 9111 §5.2, §4.2.1, §1.2.2)

    @Test("§5.2 directives split over several Cache-Control fields all count")
    func cacheControlOverSeveralFields() async throws {
        let headers = Self.fields([("Cache-Control", "public"), ("Cache-Control", "max-age=60, must-revalidate")])
        #expect(try await Self.isFresh(headers, after: 59))
        #expect(try await !Self.isFresh(headers, after: 60))
        // must-revalidate, from the second field, is not served stale even for max-stale.
        let cache = Self.harness(headers)
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(61))
        #expect(try await cache.get(headers: ["Cache-Control": "max-stale"]).cacheStatus == .miss)
    }

    @Test("§5.2 directive names are case-insensitive")
    func directiveNamesIgnoreCase() async throws {
        #expect(try await Self.isFresh(["Cache-Control": "MAX-AGE=60"], after: 59))
        #expect(try await !Self.isFresh(["Cache-Control": "Max-Age=60"], after: 60))
        #expect(try await !Self.isFresh(["Cache-Control": "max-age=60, No-Cache"]))
    }

    @Test("§5.2 a quoted argument reads as its token, and a directive inside a quoted string is not one")
    func quotedArguments() async throws {
        #expect(try await Self.isFresh(["Cache-Control": #"max-age="60""#], after: 59))
        #expect(try await !Self.isFresh(["Cache-Control": #"max-age="60""#], after: 60))
        #expect(try await !Self.isFresh(["Cache-Control": #"ext="max-age=3600", max-age=1"#], after: 1))
        #expect(try await Self.isFresh(["Cache-Control": #"ext="a, no-store, b", max-age=60"#], after: 59))
    }

    @Test(
        "§4.2.1 a max-age that is not delta-seconds makes the response stale, whatever Expires says",
        arguments: [
            "max-age=-1", "max-age=", "max-age", "max-age=1.5", "max-age=3600a", "max-age='3600'", "max-age = 3600",
            "max-age= 3600", "max-age =3600", #"max-age="3600"#, #"max-age="36"00"#,
        ])
    func malformedMaxAgeIsStale(_ directive: String) async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": directive, "Expires": cache.date(3600)]))
        _ = try await cache.get()
        #expect(try await cache.get().cacheStatus == .miss)
    }

    @Test("§1.2.2 a max-age beyond 2^31 reads as 2^31, and leading zeros do not make a value larger")
    func hugeAndZeroPaddedMaxAge() async throws {
        let tenYears = 10 * 365 * 86_400
        #expect(try await Self.isFresh(["Cache-Control": "max-age=99999999999999999999999"], after: tenYears))
        #expect(try await !Self.isFresh(["Cache-Control": "max-age=99999999999999999999999"], after: 2_147_483_648))
        #expect(try await Self.isFresh(["Cache-Control": "max-age=000000000000060"], after: 59))
        #expect(try await !Self.isFresh(["Cache-Control": "max-age=000000000000060"], after: 60))
    }

    @Test(
        "§4.2.1 a max-age given twice with different values makes the response stale; the same value twice does not",
        arguments: [
            (["max-age=3600, max-age=1"], false), (["max-age=1, max-age=3600"], false),
            (["max-age=3600", "max-age=1"], false), (["max-age=60, max-age=060"], true),
            (["max-age=60", "max-age=60"], true),
        ])
    func duplicateMaxAge(_ values: [String], isFresh: Bool) async throws {
        #expect(try await Self.isFresh(Self.fields(values.map { ("Cache-Control", $0) })) == isFresh)
    }

    @Test("§5.2.2.4 a no-cache given with and without field names is the unqualified one; field names add up")
    func repeatedNoCache() async throws {
        #expect(try await !Self.isFresh(["Cache-Control": #"max-age=60, no-cache="X-A", no-cache"#]))
        let cache = Self.harness(
            Self.fields([
                ("Cache-Control", #"max-age=60, no-cache="X-A""#), ("Cache-Control", #"no-cache="X-B""#),
                ("X-A", "1"), ("X-B", "2"), ("X-C", "3"),
            ]))
        _ = try await cache.get()
        let hit = try await cache.get()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.headers["X-A"] == nil)
        #expect(hit.headers["X-B"] == nil)
        #expect(hit.headers["X-C"] == "3")
    }

    @Test(
        "§5.2.1 a request's unreadable or conflicting max-age, min-fresh or max-stale is taken at its strictest",
        arguments: [
            ("max-age=abc", 30, CacheInterceptor.Status.miss), ("max-age=100, max-age=10", 30, .miss),
            ("max-age=100, max-age=100", 30, .hit), ("min-fresh=abc", 30, .miss), ("min-fresh=10", 30, .hit),
            ("max-stale=abc", 70, .miss), ("max-stale=100, max-stale=5", 70, .miss), ("max-stale", 70, .staleHit),
            ("max-stale=100", 70, .staleHit),
        ])
    func requestDirectivesAtTheirStrictest(_ directive: String, after seconds: Int, status: CacheInterceptor.Status)
        async throws
    {
        let cache = Self.harness(["Cache-Control": "max-age=60"])
        _ = try await cache.get()
        await cache.clock.advance(by: .seconds(seconds))
        #expect(try await cache.get(headers: ["Cache-Control": directive]).cacheStatus == status)
    }

    // MARK: - Expires (RFC 9111 §5.3)

    @Test("§5.3 Expires fields that disagree make the response stale; an Expires repeated with one date does not")
    func conflictingExpires() async throws {
        let cache = CacheHarness()
        let later = cache.date(3600)
        let sooner = cache.date(1)
        #expect(try await !Self.isFresh(Self.fields([("Expires", later), ("Expires", sooner)])))
        #expect(try await !Self.isFresh(Self.fields([("Expires", later), ("Expires", "0")])))
        #expect(try await Self.isFresh(Self.fields([("Expires", later), ("Expires", later)])))
    }

    @Test("§5.3 an Expires in the past or at the response's Date is stale at once", arguments: [-1, 0])
    func expiresInThePast(_ offset: Double) async throws {
        let cache = CacheHarness()
        #expect(try await !Self.isFresh(["Date": cache.date(), "Expires": cache.date(offset)]))
    }

    // MARK: - Vary (RFC 9111 §4.1)

    @Test(
        "§4.1 Vary with several names, in one field or several and in any case, needs every named field to match",
        arguments: [["Accept-Language, Accept-Encoding"], ["accept-language", "ACCEPT-ENCODING"]])
    func varyOnSeveralFields(_ vary: [String]) async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"),
            with: .text("v", headers: Self.fields([("Cache-Control", "max-age=60")] + vary.map { ("Vary", $0) })))
        let english: HTTPHeaders = [.acceptLanguage: "en", .acceptEncoding: "gzip, br"]
        _ = try await cache.get(headers: english)
        #expect(try await cache.get(headers: english).cacheStatus == .hit)
        // The same list over two fields is the same value (RFC 9110 §5.3).
        let split = Self.fields([("Accept-Language", "en"), ("Accept-Encoding", "gzip"), ("Accept-Encoding", "br")])
        #expect(try await cache.get(headers: split).cacheStatus == .hit)
        #expect(try await cache.get(headers: [.acceptLanguage: "en", .acceptEncoding: "br"]).cacheStatus == .miss)
        #expect(
            try await cache.get(headers: [.acceptLanguage: "fr", .acceptEncoding: "gzip, br"]).cacheStatus == .miss)
    }

    @Test(
        "§4.1 a Vary with * anywhere in its list, or in any of its fields, is never stored",
        arguments: [["*"], ["Accept, *"], ["*, Accept"], [", *"], ["Accept", "*"], ["", "*"]])
    func varyStarAnywhere(_ vary: [String]) async throws {
        #expect(try await !Self.isFresh(Self.fields([("Cache-Control", "max-age=60")] + vary.map { ("Vary", $0) })))
    }

    // MARK: - Pragma (RFC 9111 §5.4)

    @Test("§5.4 a request's Pragma: no-cache asks for validation only when the request has no Cache-Control")
    func requestPragma() async throws {
        let cache = CacheHarness()
        cache.stub.stub(
            .path("/item"), with: .text("v1", headers: ["Cache-Control": "max-age=600", "ETag": #""a""#]),
            .response(statusCode: 304, headers: ["ETag": #""a""#]))
        _ = try await cache.get()
        #expect(try await cache.get(headers: ["Pragma": "No-Cache"]).cacheStatus == .revalidated)
        #expect(try await cache.get(headers: ["Pragma": "no-cache", "Cache-Control": "max-stale"]).cacheStatus == .hit)
        #expect(try await cache.get(headers: ["Pragma": "x-other"]).cacheStatus == .hit)
        #expect(cache.sent.count == 2)
    }

    @Test("§5.4 a response's Pragma: no-cache is read as no-cache only when it has no Cache-Control")
    func responsePragma() async throws {
        let lastModified = "Sat, 01 Jan 2000 00:00:00 GMT"
        #expect(try await !Self.isFresh(["Last-Modified": lastModified, "Pragma": "no-cache"]))
        #expect(try await Self.isFresh(["Last-Modified": lastModified, "Pragma": "x-other"]))
        #expect(try await Self.isFresh(["Cache-Control": "max-age=60", "Pragma": "no-cache"]))
    }
}
