import Foundation
import Testing

@testable import BothamNetworking

@Suite("Content-Range fields of ranged responses", .timeLimit(.minutes(1)))
struct ContentRangeTests {
    @Test("a satisfied range gives its first and last byte and the total")
    func satisfied() throws {
        let range = try #require(ContentRange("bytes 65536-131071/1073741824"))
        #expect(range.first == 65536)
        #expect(range.last == 131071)
        #expect(range.total == 1_073_741_824)
    }

    @Test(
        "unsatisfied, unknown-total, reversed, negative or malformed ranges are refused",
        arguments: [
            "bytes */100", "bytes 0-9/*", "bytes 10-9/100", "bytes -1-9/100", "bytes 0-9/0", "items 0-9/100",
            "bytes 0-9", "bytes a-b/c", "", "bytes 0-99999999999999999999/100",
        ])
    func refused(field: String) {
        #expect(ContentRange(field) == nil)
    }
}
