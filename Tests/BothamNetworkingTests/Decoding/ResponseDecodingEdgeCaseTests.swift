import BothamNetworking
import Foundation
import Testing

/// JSON and text edge cases next to the inputs `FuzzResponseDecoding` explores: parsed values write back as JSON
/// that reads as the same value, and nothing traps.
@Suite("Response decoding edge cases", .timeLimit(.minutes(1)))
struct ResponseDecodingEdgeCaseTests {
    @Test(
        "parsed JSON writes back as JSON reading the same value",
        arguments: [
            "-0", "-0.0", #"{"a":1,"a":2}"#, "1E-400", "123456789012345678901234567890", "[-9223372036854775808]",
            "9223372036854775807", "9223372036854775808", "1.0", "[0.1,1e15,1e16,-1e15,999999999999999.9]",
            #""\u0000""#, "2.5e-324", #"{"":{"":[[]]}}"#, "1e308",
        ])
    func jsonRoundTrip(_ text: String) throws {
        let value = try #require(JSONValue(jsonData: Data(text.utf8)), "\(text) is valid JSON and must parse")
        let reread = JSONValue(jsonData: try value.encoded())
        #expect(reread == value, "\(text) → \(value) → \(String(describing: reread))")
    }

    @Test("numbers beyond Double's range are refused, never read as infinities")
    func hugeNumbers() throws {
        for text in ["[1e400]", "-1e400", #"{"a":1e999}"#] {
            #expect(JSONValue(jsonData: Data(text.utf8)) == nil, "\(text)")
        }
        // The largest finite values still read as the numbers they are.
        let largest = try #require(JSONValue(jsonData: Data("[1.7976931348623157e308]".utf8)))
        #expect(largest == [.double(.greatestFiniteMagnitude)])
    }

    @Test("a string holding a lone UTF-16 surrogate is refused")
    func loneSurrogate() {
        #expect(JSONValue(jsonData: Data(#""\ud800""#.utf8)) == nil)
        #expect(JSONValue(jsonData: Data(#""\ud83d\ude00""#.utf8)) == .string("😀"))
    }

    @Test("a UTF-16 body with a byte order mark the charset does not name keeps it as U+FEFF/U+FFFE")
    func foreignByteOrderMark() throws {
        let body = Data([0xFF, 0xFE, 0x00, 0x68])
        #expect(HTTPResponse.Charset.utf16BigEndian.decode(body) == "\u{FFFE}h")
        #expect(HTTPResponse.Charset.utf16LittleEndian.decode(Data([0xFE, 0xFF, 0x68, 0x00])) == "\u{FFFE}h")
    }
}
