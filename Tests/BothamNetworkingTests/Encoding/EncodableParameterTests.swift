import BothamNetworking
import Foundation
import Testing

@Suite("Encodable values become parameters through a JSONEncoder", .timeLimit(.minutes(1)))
struct EncodableParameterTests {
    struct Search: Encodable {
        var searchTerm: String
        var createdAfter: Date
        var labels: [String]
        var includeClosed: Bool
        var page: Int?
    }

    let search = Search(
        searchTerm: "crash",
        createdAfter: Date(timeIntervalSince1970: 0),
        labels: ["bug"],
        includeClosed: false,
        page: nil
    )

    @Test("the encoder's key and date strategies apply and nil optionals are left out")
    func strategies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let items = try ParameterEncoding.default.items(for: search, encoder: encoder)
        #expect(
            items.percentEncoded
                == "created_after=1970-01-01T00%3A00%3A00Z&include_closed=0&labels%5B%5D=bug&search_term=crash"
        )
    }

    @Test("the default date strategy writes seconds since 2001")
    func defaultDates() throws {
        let items = try ParameterEncoding.default.items(for: search)
        #expect(items["createdAfter"] == "-978307200")
    }

    @Test("a value the encoder rejects is an invalid request")
    func nanIsRejected() {
        struct Bad: Encodable { var value = Double.nan }
        #expect {
            try ParameterEncoding.default.items(for: Bad())
        } throws: { error in
            guard case .invalidRequest = error as? APIClientError else { return false }
            return true
        }
    }
}
