import BothamNetworking
import Foundation
import Testing

@Suite("HTTPResponse.resolvedLocation resolves Location as RFC 3986 says", .timeLimit(.minutes(1)))
struct ResolvedLocationTests {
    static func response(location: String?, base: String = "https://r.example/v2/app/blobs/uploads/?state=a%2Fb")
        -> HTTPResponse
    {
        let request = HTTPRequest(method: .post, baseEndpoint: base)
        return HTTPResponse(
            statusCode: 202, headers: location.map { [.location: $0] } ?? [:], request: request)
    }

    @Test(
        "a Location resolves against the request URL, keeping its query byte for byte",
        arguments: [
            (
                "5f1a?_state=x%2Fy+z&digest=sha256%3Aab",
                "https://r.example/v2/app/blobs/uploads/5f1a?_state=x%2Fy+z&digest=sha256%3Aab"
            ),
            ("/v2/app/blobs/uploads/u1?s=%2F+", "https://r.example/v2/app/blobs/uploads/u1?s=%2F+"),
            ("https://other.example/up?X-Amz-Signature=a%2Fb+c", "https://other.example/up?X-Amz-Signature=a%2Fb+c"),
            ("?page=2&q=a+b%2F", "https://r.example/v2/app/blobs/uploads/?page=2&q=a+b%2F"),
            ("../../manifests/./latest", "https://r.example/v2/app/manifests/latest"),
            ("/a/b/../../../c", "https://r.example/c"),
            ("//cdn.example/blob", "https://cdn.example/blob"),
            ("  next  ", "https://r.example/v2/app/blobs/uploads/next"),
        ])
    func resolves(location: String, expected: String) {
        #expect(Self.response(location: location).resolvedLocation?.absoluteString == expected)
    }

    @Test("no, an empty or a non-http Location resolves to nil", arguments: [nil, "", "ftp://h/x", "mailto:a@b"])
    func nilWhenNotHTTP(location: String?) {
        #expect(Self.response(location: location).resolvedLocation == nil)
    }

    @Test("after a redirect the Location resolves against the URL the response came from")
    func resolvesAgainstTheResponseURL() {
        let request = HTTPRequest(method: .get, baseEndpoint: "https://a.example/one/")
        let response = HTTPResponse(
            statusCode: 201, headers: [.location: "next"], request: request,
            url: URL(string: "https://b.example/two/"))
        #expect(response.resolvedLocation?.absoluteString == "https://b.example/two/next")
    }
}
