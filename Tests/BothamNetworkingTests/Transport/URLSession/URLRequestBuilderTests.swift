import Foundation
import Testing

@testable import BothamNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLRequestBuilder's header fields", .timeLimit(.minutes(1)))
struct URLRequestBuilderTests {
    /// Requests whose fields repeat a name (in one spelling and in several), hold a list value, or hold none.
    static let requests: [HTTPRequest] = [
        HTTPRequest(method: .get, baseEndpoint: "http://127.0.0.1:8080", path: "/none"),
        HTTPRequest(
            method: .get, baseEndpoint: "http://127.0.0.1:8080", path: "/one",
            headers: ["Accept": "application/json"]),
        HTTPRequest(
            method: .post, baseEndpoint: "http://127.0.0.1:8080", path: "/many",
            headers: [
                "accept-encoding": "gzip", "X-API-Key": "k", "Accept-Encoding": "deflate", "x-api-key": "second",
                "ACCEPT-ENCODING": "br", "Cache-Control": "no-cache, no-store", "X-Empty": "",
                "User-Agent": "tests\tBothamNetworking", "X-Obs-Text": "caf\u{E9}",
            ]),
    ]

    @Test(
        "the first hop carries exactly the fields Foundation's addValue builds one field at a time",
        arguments: requests)
    func sameAsAddValue(request: HTTPRequest) throws {
        let prepared = try request.prepared()
        let (hop, _) = try URLRequestBuilder.firstHop(for: prepared, timeLimit: nil)
        var expected = URLRequest(url: try prepared.resolvedURL())
        for field in prepared.headers {
            expected.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        #expect(hop.request.allHTTPHeaderFields == expected.allHTTPHeaderFields)
        for field in prepared.headers {
            let name = field.name.rawName
            #expect(hop.request.value(forHTTPHeaderField: name) == expected.value(forHTTPHeaderField: name))
        }
    }

    @Test("repeated names are joined with commas in order, under one spelling")
    func repeatsJoined() throws {
        let prepared = try Self.requests[2].prepared()
        let (hop, _) = try URLRequestBuilder.firstHop(for: prepared, timeLimit: nil)
        #expect(hop.request.value(forHTTPHeaderField: "accept-encoding") == "gzip,deflate,br")
        #expect(hop.request.value(forHTTPHeaderField: "X-Api-Key") == "k,second")
        #expect(hop.request.value(forHTTPHeaderField: "X-Empty") == "")
        let names = (hop.request.allHTTPHeaderFields ?? [:]).keys.filter { $0.lowercased() == "accept-encoding" }
        #expect(names.count == 1)
    }

    @Test("a request without fields leaves the URLRequest's fields unset")
    func noFields() throws {
        let prepared = try Self.requests[0].prepared()
        let (hop, _) = try URLRequestBuilder.firstHop(for: prepared, timeLimit: nil)
        #expect(hop.request.allHTTPHeaderFields == URLRequest(url: try prepared.resolvedURL()).allHTTPHeaderFields)
    }
}
