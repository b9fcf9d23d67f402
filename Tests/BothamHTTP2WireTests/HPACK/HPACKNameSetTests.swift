import Testing

@testable import BothamHTTP2Wire

@Suite("A set of field names answers by length first", .timeLimit(.minutes(1)))
struct HPACKNameSetTests {
    @Test("Members are found, names of a member's length that are not members are not, nor names of other lengths")
    func membership() {
        let long = Array(repeating: UInt8(ascii: "x"), count: 70)
        let set = HPACKNameSet([Array("cookie".utf8), Array("authorization".utf8), [], long])

        #expect(set.contains(Array("cookie".utf8)))
        #expect(set.contains(Array("authorization".utf8)))
        #expect(set.contains([]), "the empty name, length 0")
        #expect(set.contains(long), "a member of 64 octets or more")
        #expect(!set.contains(Array("cookiE".utf8)), "as given: no case folding")
        #expect(!set.contains(Array("accept".utf8)), "a member's length, not a member")
        #expect(!set.contains(Array("user-agent".utf8)), "no member has this length")
        #expect(!set.contains(Array(repeating: UInt8(ascii: "y"), count: 70)), "64 octets or more, not a member")
        #expect(!HPACKNameSet([[UInt8]]()).contains([]))
    }

    @Test("The encoder's sensitive names and the sensible indexing policy's variable names use it")
    func sensitiveNamesStillNeverIndexed() {
        let encoder = HPACKEncoder(sensitiveNames: ["X-Api-Key"])
        #expect(encoder.sensitiveNames.contains(Array("x-api-key".utf8)))
        #expect(encoder.sensitiveNames.contains(Array("proxy-authorization".utf8)))
        #expect(!encoder.sensitiveNames.contains(Array("x-api-keys".utf8)))
        #expect(HPACKIndexingPolicy.variableNames.contains(Array(":path".utf8)))
        #expect(!HPACKIndexingPolicy.variableNames.contains(Array(":method".utf8)))
    }
}
