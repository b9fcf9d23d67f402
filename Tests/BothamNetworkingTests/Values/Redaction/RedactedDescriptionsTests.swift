import BothamNetworking
import Foundation
import Testing

@Suite("Every description of a value hides credentials by default", .timeLimit(.minutes(1)))
struct RedactedDescriptionsTests {
    static let secret = "s3cr3t-value"

    /// Every header name README.md and SECURITY.md list, written out here (not taken from `Redactor`'s own lists, so
    /// dropping a documented name from the code fails this suite), plus one name per documented fragment (`token`,
    /// `secret`, `password`, `signature`, `api-key`, `apikey`).
    static let credentialNames: [String] = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key", "X-Auth-Token",
        "X-Amz-Security-Token",
        "x-amz-security-token", "X-CSRF-Token", "X-Client-Secret", "X-Password", "X-Signature", "X-Goog-Api-Key",
        "X-ApiKey",
    ]

    /// The query parameters README.md and SECURITY.md name, then the rest of the default list its doc comment gives,
    /// written out, plus two spellings that differ only in case.
    static let credentialQueryParameters: [String] = [
        "access_token", "api_key", "token", "sig", "X-Amz-Signature", "X-Amz-Security-Token",
        "client_secret", "apikey", "password", "signature", "x-goog-signature",
        "Access_Token", "x-amz-signature",
    ]

    /// The body fields README.md and SECURITY.md list, written out.
    static let credentialBodyFields: [String] = [
        "password", "client_secret", "access_token", "refresh_token", "id_token",
    ]

    /// Every text a request, its headers, a field and a response are turned into.
    static func texts(of name: String) -> [String] {
        let headers: HTTPHeaders = [HTTPFieldName(name): secret, "Accept": "application/json"]
        let request = HTTPRequest(method: .get, baseEndpoint: "https://api.example.com", path: "/x", headers: headers)
        let response = HTTPResponse(statusCode: 200, headers: headers, request: request)
        let field = HTTPHeaders.Field(name: HTTPFieldName(name), value: secret)
        var texts = [
            headers.description, "\(headers)", String(reflecting: headers),
            request.description, request.debugDescription, "\(request)", String(reflecting: request),
            response.description, response.debugDescription, "\(response)", String(reflecting: response),
            field.description, "\(field)", String(reflecting: field),
        ]
        for value in [headers, request, response, field] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            texts.append(dumped)
        }
        return texts
    }

    @Test(
        "every credential header is hidden in every description, interpolation, debugDescription and dump",
        arguments: credentialNames)
    func credentialHeadersAreHidden(name: String) {
        for text in Self.texts(of: name) {
            #expect(!text.contains(Self.secret), "\(name) leaked in \(text)")
            // The one-line descriptions (`GET https://…`) show no headers at all.
            if text.lowercased().contains(name.lowercased()) {
                #expect(text.contains("REDACTED"), "\(name) not redacted in \(text)")
            }
        }
    }

    @Test(
        "every header name in Redactor's default list, including one added later, is hidden in every description",
        arguments: Redactor.defaultHeaderNames.map(\.rawName).sorted())
    func everyDefaultHeaderNameIsHidden(name: String) {
        credentialHeadersAreHidden(name: name)
    }

    @Test("a Location or Content-Location keeps its URL but hides credential query values and passwords")
    func locationQueriesAreRedacted() {
        let headers: HTTPHeaders = [
            "Location": "https://cdn.example.com/o?X-Amz-Signature=\(Self.secret)&part=1",
            "Content-Location": "/o?token=\(Self.secret)#f",
            "Link": "</o?token=\(Self.secret)>",
        ]
        let redacted = Redactor.default.redact(headers)
        #expect(redacted[.location] == "https://cdn.example.com/o?X-Amz-Signature=REDACTED&part=1")
        #expect(redacted["Content-Location"] == "/o?token=REDACTED#f")
        #expect(redacted["Link"] == headers["Link"], "only the fields that are URI references are rewritten")
        #expect(
            Redactor.default.redact(uriReference: "https://jane:\(Self.secret)@example.com/")
                == "https://jane:REDACTED@example.com/")
        #expect(
            Redactor.default.redact(uriReference: "//jane:\(Self.secret)@cdn.example.com/o?token=\(Self.secret)")
                == "//jane:REDACTED@cdn.example.com/o?token=REDACTED")
        #expect(Redactor.default.redact(uriReference: "/p/a@b?x=1#frag?token=1") == "/p/a@b?x=1#frag?token=1")
        #expect(Redactor.default.redact(uriReference: "/p#top?token=1") == "/p#top?token=1", "a fragment has no query")
        var locations = headers
        locations.remove("Link")
        let response = HTTPResponse(
            statusCode: 302, headers: locations,
            request: HTTPRequest(method: .get, baseEndpoint: "https://api.example.com"))
        for text in [locations.description, response.debugDescription, String(reflecting: response)] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
    }

    @Test("other headers are shown as they are")
    func otherHeadersAreShown() {
        let shown = Self.texts(of: "X-Request-Id").filter { $0.contains("X-Request-Id") }
        #expect(!shown.isEmpty, "no description shows the header at all")
        for text in shown {
            #expect(text.contains(Self.secret))
        }
    }

    @Test("names compare ignoring case, for the list and for the fragments")
    func namesIgnoreCase() {
        for name in ["AUTHORIZATION", "x-api-key", "X-AMZ-SECURITY-TOKEN", "x-my-TOKEN-id", "Set-Cookie"] {
            #expect(Redactor.default.redacts(header: HTTPFieldName(name)), "\(name)")
        }
        #expect(!Redactor.default.redacts(header: "Content-Type"))
        #expect(!Redactor.default.redacts(header: "X-Amz-Content-Sha256"))
        #expect(!Redactor.none.redacts(header: "X-Auth-Token"))
        #expect(Redactor.none.redactingHeaders(containing: ["Tenant"]).redacts(header: "X-TENANT-ID"))
    }

    @Test("secret body fields are hidden in request and response descriptions and dumps")
    func bodyFieldsAreHidden() throws {
        let request = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/login",
            body: ["user": "jane", "password": .string(Self.secret)])
        let form = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/token",
            body: .form(["client_secret": Self.secret]))
        let response = HTTPResponse(
            statusCode: 200, headers: [.contentType: "application/json"],
            body: Data(#"{"access_token":"\#(Self.secret)"}"#.utf8), request: request)
        var dumped = ""
        dump(response, to: &dumped)
        for text in [
            request.debugDescription, form.debugDescription, response.debugDescription, dumped,
            String(reflecting: response),
        ] {
            #expect(!text.contains(Self.secret), "leaked in \(text)")
            #expect(text.contains("REDACTED"))
        }
        #expect(request.debugDescription.contains("jane"))
    }

    @Test(
        "every documented body field is hidden in JSON and form bodies, request and response, described and dumped",
        arguments: credentialBodyFields)
    func everyDocumentedBodyFieldIsHidden(field: String) {
        let json = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/login",
            body: ["user": "jane", field: .string(Self.secret)])
        let form = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", path: "/token",
            body: .form([field: Self.secret, "grant_type": "refresh_token"]))
        let response = HTTPResponse(
            statusCode: 200, headers: [.contentType: "application/json"],
            body: Data(#"{"token_type":"Bearer","\#(field)":"\#(Self.secret)"}"#.utf8), request: form)
        var texts = [
            json.debugDescription, String(reflecting: json), form.debugDescription, String(reflecting: form),
            response.debugDescription, String(reflecting: response),
        ]
        for value in [json, form, response] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            texts.append(dumped)
        }
        for text in texts {
            #expect(!text.contains(Self.secret), "\(field) leaked in \(text)")
            #expect(text.contains("REDACTED"), "\(field) not redacted in \(text)")
        }
        #expect(json.debugDescription.contains("jane"))
        #expect(response.debugDescription.contains("Bearer"))
    }

    @Test("an httpResponseError's description and dump hide secret body fields and credential headers")
    func errorsHideSecrets() {
        let request = HTTPRequest(
            method: .post, baseEndpoint: "https://auth.example.com", path: "/token",
            headers: [.authorization: Self.secret])
        let error = APIClientError.httpResponseError(
            HTTPResponse(
                statusCode: 400, headers: [.contentType: "application/json", .setCookie: Self.secret],
                body: Data(#"{"error":"x","refresh_token":"\#(Self.secret)"}"#.utf8), request: request))
        var dumped = ""
        dump(error, to: &dumped)
        for text in [error.description, "\(error)", String(reflecting: error), dumped] {
            #expect(!text.contains(Self.secret), "leaked in \(text)")
        }
        #expect(error.description.contains("REDACTED"))
    }

    @Test("tokens and Basic credentials never show their secret, dumped or described")
    func credentialsHideSecrets() {
        let token = TokenAuthenticator.Token(Self.secret)
        let basic = BasicAuthCredentials(username: "jane", password: Self.secret)
        for value in [token, basic] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [dumped, String(describing: value), String(reflecting: value)] {
                #expect(!text.contains(Self.secret), "leaked in \(text)")
            }
        }
    }

    @Test(
        "every default query parameter is hidden in the descriptions, the dump and cURL; others are kept byte for byte",
        arguments: credentialQueryParameters)
    func credentialQueryParametersAreHidden(name: String) {
        let request = HTTPRequest(
            method: .get, baseEndpoint: "https://bucket.example.com", path: "/key",
            parameters: [name: Self.secret, "continuation-token": "c%2F1", "page_token": "p+2"])
        let response = HTTPResponse(statusCode: 200, request: request)
        var dumped = ""
        dump(response, to: &dumped)
        for text in [
            request.description, request.debugDescription, response.description, response.debugDescription, dumped,
            request.cURLDescription(),
        ] {
            #expect(!text.contains(Self.secret), "\(name) leaked in \(text)")
            #expect(text.contains("continuation-token=c%252F1&page_token=p%2B2"), "\(text)")
        }
    }

    @Test("a password in the URL is hidden in the descriptions and the dump")
    func urlPasswordIsHidden() throws {
        let request = HTTPRequest(
            method: .get, url: try #require(URL(string: "https://jane:\(Self.secret)@h.example/x")))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [request.description, request.debugDescription, dumped] {
            #expect(!text.contains(Self.secret), "leaked in \(text)")
        }
    }
}
