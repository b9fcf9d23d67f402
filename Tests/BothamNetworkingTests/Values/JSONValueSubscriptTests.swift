import BothamNetworking
import Testing

@Suite("JSONValue subscripts read into objects and arrays without trapping")
struct JSONValueSubscriptTests {
    let body: JSONValue = [
        "model": "small",
        "messages": [["role": "system", "content": "Be brief."], ["role": "user", "content": "Hello"]],
    ]

    @Test("an index reads an array element, and keys and indexes chain")
    func indexReadsArrayElements() {
        #expect(body["messages"]?[1]?["content"] == "Hello")
        #expect(body["messages"]?[0]?["role"] == "system")
    }

    @Test("an index out of range, negative, or into something that is not an array is nil")
    func badIndexesAreNil() {
        #expect(body["messages"]?[2] == nil)
        #expect(body["messages"]?[-1] == nil)
        #expect(body[0] == nil)
        #expect(body["model"]?[0] == nil)
    }
}
