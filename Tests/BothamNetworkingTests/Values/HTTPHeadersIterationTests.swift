import BothamNetworking
import Foundation
import Testing

@Suite("Iterating headers and setting parameters", .timeLimit(.minutes(1)))
struct HTTPHeadersIterationTests {
    @Test("iterating headers yields (name, value) pairs in order, repeats included, and field.name still works")
    func iterationYieldsPairs() {
        let headers: HTTPHeaders = ["Accept": "a", "Set-Cookie": "x=1", "set-cookie": "y=2"]
        var pairs: [String] = []
        for (name, value) in headers {
            pairs.append("\(name)=\(value)")
        }
        #expect(pairs == ["Accept=a", "Set-Cookie=x=1", "set-cookie=y=2"])
        var cookies: [String] = []
        for field in headers where field.name == .setCookie {
            cookies.append(field.value)
        }
        #expect(cookies == ["x=1", "y=2"])
        #expect(headers.map(\.name.rawName) == ["Accept", "Set-Cookie", "set-cookie"])
    }

    @Test("setting a parameter replaces every one of that name at the first position; nil removes them")
    func parametersSubscriptIsSettable() {
        var parameters: HTTPParameters = ["page": "1", "tag": "a", "tag": "b"]
        parameters["tag"] = "c"
        #expect(parameters.percentEncoded == "page=1&tag=c")
        parameters["page"] = "2"
        parameters["new"] = "n"
        #expect(parameters.percentEncoded == "page=2&tag=c&new=n")
        parameters["tag"] = nil
        #expect(parameters.percentEncoded == "page=2&new=n")
        #expect(parameters["Page"] == nil)  // names compare exactly
    }
}
