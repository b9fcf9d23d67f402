import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

/// The body fields a `Redactor` names are hidden in JSON and form bodies, in logs and in cURL commands.
@Suite("Body field redaction in logs and cURL", .timeLimit(.minutes(1)))
struct BodyFieldRedactionTests {
    static let secrets = ["SECRET-PW", "SECRET-CS", "SECRET-AT", "SECRET-RT", "SECRET-ID", "SECRET-PIN", "4111"]

    /// A JSON body with every default field, a custom one (`pin`), at several depths, inside arrays, with values of
    /// every kind, a name in another case and a name written with escapes.
    static let nestedJSON = #"""
        {"user": "jane", "password": "SECRET-PW",
         "client": {"client_id": "app", "Client_Secret": "SECRET-CS"},
         "tokens": [{"access_token": "SECRET-AT", "expires_in": 3600}, {"refresh_token": {"value": "SECRET-RT"}}],
         "id_token": ["SECRET-ID", 1], "pin": 4111, "pass\u0077ord": "SECRET-PW", "note": "password"}
        """#

    static let redactor = Redactor(bodyFieldNames: ["PIN"])
    var redactor: Redactor { Self.redactor }

    func redacted(_ text: String, contentType: String? = nil, redactor: Redactor = Self.redactor) -> String {
        let data = redactor.redact(body: Data(text.utf8), contentType: contentType)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("Named JSON fields are hidden at any depth, in objects and arrays, whatever their value")
    func nestedJSONFields() throws {
        let output = redacted(Self.nestedJSON)
        for secret in Self.secrets {
            #expect(!output.contains(secret), "\(secret) in \(output)")
        }
        let value = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let object = try #require(value)
        #expect(object["user"] as? String == "jane")
        #expect(object["password"] as? String == "REDACTED")
        #expect((object["client"] as? [String: String]) == ["client_id": "app", "Client_Secret": "REDACTED"])
        let tokens = try #require(object["tokens"] as? [[String: Any]])
        #expect(tokens[0]["access_token"] as? String == "REDACTED")
        #expect(tokens[0]["expires_in"] as? Int == 3600)
        #expect(tokens[1]["refresh_token"] as? String == "REDACTED")
        #expect(object["id_token"] as? String == "REDACTED")
        #expect(object["pin"] as? String == "REDACTED")
        #expect(object["note"] as? String == "password", "a value equal to a name is not a field")
    }

    @Test("Everything but the hidden values is kept byte for byte")
    func formattingKept() {
        let body = "{\n  \"a\" : 1.50e3,\n  \"password\" :\t\"x\\\"y\" ,\n  \"b\":[true,null]\n}"
        #expect(redacted(body) == "{\n  \"a\" : 1.50e3,\n  \"password\" :\t\"REDACTED\" ,\n  \"b\":[true,null]\n}")
        #expect(redacted(#"[{"refresh_token":12.5e-1}]"#) == #"[{"refresh_token":"REDACTED"}]"#)
        let custom = Redactor(replacement: #"<"hidden"\>"#)
        #expect(redacted(#"{"password":"p"}"#, redactor: custom) == #"{"password":"<\"hidden\"\\>"}"#)
    }

    @Test("Text that is not valid JSON never fails and is still redacted where it has the name: value shape")
    func invalidJSON() {
        #expect(redacted(#"{"password": "SECRET-PW"#) == #"{"password": "REDACTED""#)
        #expect(redacted(#"{"password": SECRET-PW, "x": 1}"#) == #"{"password": "REDACTED", "x": 1}"#)
        #expect(redacted(#"{"password": {"deep": ["SECRET-PW""#) == #"{"password": "REDACTED""#)
        #expect(redacted(#"{"password":}"#) == #"{"password":}"#)
        for text in [#"{""#, #"{"\"#, #"{"\u12"#, #"{"\ud800":1}"#, "[", "{\"password\"", #"{"password":"#, "{\"a\\"] {
            #expect(!redacted(text).contains("SECRET"))
        }
        var generator = SplitMix64(seed: 0xB0D1_F1E1)
        let alphabet = Array(#"{}[]":,\ u0123456789abcdefpasword_-"#.utf8) + [0, 0xFF, 0xC3, 0x0A]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? 0
            }
            _ = redactor.redact(body: Data([UInt8(ascii: "{")] + bytes), contentType: "application/json")
        }
    }

    @Test("Form bodies hide the named fields, decoded names included")
    func formBodies() {
        let body = "grant_type=refresh_token&refresh_token=SECRET-RT&Client%5FSecret=SECRET-CS&pin=4111&x=password"
        #expect(
            redacted(body, contentType: "application/x-www-form-urlencoded; charset=utf-8")
                == "grant_type=refresh_token&refresh_token=REDACTED&Client%5FSecret=REDACTED&pin=REDACTED&x=password")
    }

    @Test("Other bodies, bodies without hidden fields and Redactor.none leave the bytes alone")
    func leftAlone() {
        let form = "password=SECRET-PW"
        #expect(redacted(form, contentType: "text/plain") == form)
        #expect(redacted(form) == form)
        let text = #"the "password": SECRET-PW"#
        #expect(redacted(text, contentType: "text/plain") == text)
        let plain = #"{"user": "jane", "n": [1, 2]}"#
        #expect(redacted(plain) == plain)
        #expect(redacted(Self.nestedJSON, redactor: .none) == Self.nestedJSON)
        let binary = Data([0xFF, 0x00, 0x7B, 0x22])
        #expect(redactor.redact(body: binary, contentType: "application/octet-stream") == binary)
        #expect(Redactor(bodyFieldNames: ["PIN"]).redacts(bodyField: "pin"))
        #expect(Redactor.default.redacts(bodyField: "Access_Token"))
        #expect(!Redactor.none.redacts(bodyField: "password"))
    }

    @Test("LoggingInterceptor at the body level prints no hidden field of a JSON or form request, nor of the response")
    func loggedBodies() async {
        let stub = StubHTTPClient()
        let lines = Recorder<String>()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        apiClient.interceptors.append(
            LoggingInterceptor(detail: .body, sink: LoggingInterceptor.Sink { lines.append($1) }, redactor: redactor))
        let tokens: JSONValue = ["access_token": "SECRET-AT", "refresh_token": "SECRET-RT", "id_token": "SECRET-ID"]
        stub.stub(with: .json(tokens))
        _ = await apiClient.POST("/login", body: .json(["user": "jane", "password": "SECRET-PW", "pin": 4111]))
        _ = await apiClient.POST(
            "/oauth/token", body: .form(["grant_type": "client_credentials", "client_secret": "SECRET-CS"]))
        stub.stub(with: .text(Self.nestedJSON, statusCode: 400))
        _ = await apiClient.send(apiClient.request(.put, "/raw", body: .data(Data(Self.nestedJSON.utf8))))

        let logged = lines.values
        #expect(logged.count == 6)
        for line in logged {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "\(secret) leaked in: \(line)")
            }
        }
        #expect(logged[0].contains(#""password":"REDACTED""#))
        #expect(logged[1].contains(#""access_token":"REDACTED""#))
        #expect(logged[2].contains("client_secret=REDACTED"))
        #expect(logged[0].contains(#""user":"jane""#))
    }

    @Test("The cURL command hides the named fields of JSON and form bodies; Redactor.none shows them")
    func curlBodies() {
        let json = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", body: ["user": "jane", "password": "SECRET-PW"])
        #expect(!json.cURLDescription().contains("SECRET-PW"))
        #expect(json.cURLDescription().contains(#"{"user":"jane","password":"REDACTED"}"#))
        #expect(json.cURLDescription(redactor: .none).contains("SECRET-PW"))
        let form = HTTPRequest(
            method: .post, baseEndpoint: "https://api.example.com", body: .form(["refresh_token": "SECRET-RT"]))
        #expect(form.cURLDescription().hasSuffix("--data-binary 'refresh_token=REDACTED'"))
        let raw = HTTPRequest(method: .put, baseEndpoint: "https://api.example.com", body: .text(Self.nestedJSON))
        let command = raw.cURLDescription(redactor: redactor)
        for secret in Self.secrets {
            #expect(!command.contains(secret), "\(secret) leaked in: \(command)")
        }
    }
}
