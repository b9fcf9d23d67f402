import BothamNetworking
import Foundation
import Testing

@Suite("Parameter encoding follows the documented conventions", .timeLimit(.minutes(1)))
struct ParameterEncodingTests {
    @Test("scalars are sorted by key, booleans are numeric and doubles are plain")
    func defaults() throws {
        let parameters: JSONValue = ["z": "last", "a": 1, "flag": true, "off": false, "pi": 3.5, "whole": 2.0]
        #expect(
            try ParameterEncoding.default.percentEncoded(parameters) == "a=1&flag=1&off=0&pi=3.5&whole=2&z=last"
        )
    }

    @Test("arrays use brackets by default, or no brackets, or indices")
    func arrays() throws {
        let parameters: JSONValue = ["tags": ["a", "b"]]
        #expect(try ParameterEncoding.default.percentEncoded(parameters) == "tags%5B%5D=a&tags%5B%5D=b")
        #expect(
            try ParameterEncoding(arrayEncoding: .noBrackets).percentEncoded(parameters) == "tags=a&tags=b"
        )
        #expect(
            try ParameterEncoding(arrayEncoding: .indexed).percentEncoded(parameters) == "tags%5B0%5D=a&tags%5B1%5D=b"
        )
    }

    @Test("booleans can be literal")
    func literalBooleans() throws {
        let encoding = ParameterEncoding(boolEncoding: .literal)
        #expect(try encoding.percentEncoded(["yes": true, "no": false]) == "no=false&yes=true")
    }

    @Test("nested dictionaries and arrays of dictionaries use key[sub] names at every depth")
    func nested() throws {
        let parameters: JSONValue = [
            "user": ["name": "Jane", "address": ["city": "Madrid"], "roles": ["admin"]],
            "items": [["id": 1], ["id": 2]],
        ]
        let items = try ParameterEncoding(arrayEncoding: .indexed).items(for: parameters)
        #expect(
            items.map(\.name) == [
                "items[0][id]", "items[1][id]", "user[address][city]", "user[name]", "user[roles][0]",
            ])
        #expect(items.map(\.value) == ["1", "2", "Madrid", "Jane", "admin"])
    }

    @Test("keys keep the written order when asked, at every level")
    func asWritten() throws {
        let encoding = ParameterEncoding(keyOrder: .asWritten)
        let parameters: JSONValue = ["z": 1, "a": ["y": 2, "b": 3]]
        #expect(try encoding.items(for: parameters).map(\.name) == ["z", "a[y]", "a[b]"])
    }

    @Test("repeated keys keep their relative order when sorted")
    func stableSort() throws {
        let parameters = JSONValue.object([(key: "b", value: 1), (key: "a", value: 2), (key: "b", value: 3)])
        #expect(try ParameterEncoding.default.percentEncoded(parameters) == "a=2&b=1&b=3")
    }

    @Test("empty arrays and empty dictionaries add nothing, empty strings are sent")
    func empties() throws {
        let parameters: JSONValue = ["list": [], "object": [:], "text": ""]
        #expect(try ParameterEncoding.default.percentEncoded(parameters) == "text=")
        #expect(try ParameterEncoding.default.percentEncoded([:]) == "")
    }

    @Test("null is dropped by default, or sent with an empty value, or as the word null")
    func nulls() throws {
        let parameters: JSONValue = ["a": nil, "b": "x"]
        #expect(try ParameterEncoding.default.percentEncoded(parameters) == "b=x")
        #expect(try ParameterEncoding(nullEncoding: .dropValue).percentEncoded(parameters) == "a=&b=x")
        #expect(try ParameterEncoding(nullEncoding: .null).percentEncoded(parameters) == "a=null&b=x")
    }

    @Test("reserved characters and Unicode are escaped per RFC 3986, leaving ? and / as they are")
    func escaping() throws {
        let parameters: JSONValue = [
            "q": "a b&c=d+e#f", "path": "/dir/file?x", "emoji": "😀", "accent": "café", "ünï": "ok",
            "unreserved": "-._~",
        ]
        #expect(
            try ParameterEncoding.default.percentEncoded(parameters)
                == "accent=caf%C3%A9&emoji=%F0%9F%98%80&path=/dir/file?x&q=a%20b%26c%3Dd%2Be%23f&unreserved=-._~"
                + "&%C3%BCn%C3%AF=ok"
        )
    }

    @Test("a body that is not a dictionary, or holds NaN or infinity, is an invalid request")
    func failures() {
        for bad: JSONValue in [["x": .double(.nan)], ["x": [.double(.infinity)]], ["a", "b"], "text", 3, nil] {
            #expect(throws: APIClientError.self) { try ParameterEncoding.default.items(for: bad) }
            do {
                _ = try ParameterEncoding.default.items(for: bad)
            } catch {
                guard case .invalidRequest = error else {
                    Issue.record("expected invalidRequest, got \(error)")
                    continue
                }
            }
        }
    }

    @Test("the destination depends on the method unless fixed")
    func destinations() {
        let encoding = ParameterEncoding.default
        #expect(encoding.encodesInQuery(for: .get))
        #expect(encoding.encodesInQuery(for: .head))
        #expect(encoding.encodesInQuery(for: .delete))
        #expect(!encoding.encodesInQuery(for: .post))
        #expect(!encoding.encodesInQuery(for: .put))
        #expect(!encoding.encodesInQuery(for: .patch))
        #expect(ParameterEncoding.queryString.encodesInQuery(for: .post))
        #expect(!ParameterEncoding.httpBody.encodesInQuery(for: .get))
    }
}
