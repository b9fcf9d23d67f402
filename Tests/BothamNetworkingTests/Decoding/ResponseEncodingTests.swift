import BothamNetworking
import Foundation
import Testing

@Suite("ResponseEncoding: a decoding's inverse", .timeLimit(.minutes(1)))
struct ResponseEncodingTests {
    struct Reading: Codable, Equatable, Sendable {
        var value: Double
    }

    static func served(_ encoded: EncodedResponse, method: HTTPMethod = .get) -> HTTPResponse {
        HTTPResponse(
            statusCode: encoded.statusCode, headers: encoded.headers, body: encoded.body,
            request: HTTPRequest(method: method, baseEndpoint: "https://api.example.com", path: "/x"))
    }

    @Test("the non-conforming float strategy is mirrored: infinity is written as the decoder's string")
    func nonConformingFloats() throws {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        let decoding = ResponseDecoding<Reading>.json(decoder)

        let encoded = try #require(decoding.encoder).encode(Reading(value: .infinity))

        #expect(String(decoding: encoded.body, as: UTF8.self) == #"{"value":"+Inf"}"#)
        #expect(try decoding.decode(Self.served(encoded)) == Reading(value: .infinity))
    }

    @Test("the decoder's strategies are read when encoding, so a later change is mirrored too")
    func mirrorsCurrentStrategies() throws {
        let decoder = JSONDecoder()
        let decoding = ResponseDecoding<[String: Date]>.json(decoder)
        decoder.dateDecodingStrategy = .secondsSince1970

        let encoded = try #require(decoding.encoder).encode(["at": Date(timeIntervalSince1970: 60)])

        #expect(String(decoding: encoded.body, as: UTF8.self) == #"{"at":60}"#)
        #expect(encoded.headers[.contentType] == "application/json")
    }

    @Test("an empty value answers a HEAD request with 200 and no body")
    func emptyHead() throws {
        let encoded = try ResponseEncoding<Empty>.json().encode(Empty(), for: .head)
        #expect(encoded == EncodedResponse(statusCode: 200))
    }

    @Test("a decoding made from a closure has no encoder unless given one")
    func closureHasNoEncoder() {
        let plain = ResponseDecoding<Int> { _ throws(APIClientError) in 1 }
        let given = ResponseDecoding<Int>(
            { _ throws(APIClientError) in 1 }, encoder: ResponseEncoding { _, _ in EncodedResponse() })
        #expect(plain.encoder == nil)
        #expect(given.encoder != nil)
        #expect(ResponseDecoding<String>.string().encoder != nil)
        #expect(ResponseDecoding<Data>.data.encoder != nil)
    }

    @Test("the response encoding gives the response's own status, fields and body")
    func responseEncoding() throws {
        let response = HTTPResponse(
            statusCode: 418, headers: ["X-Teapot": "yes"], body: Data("short".utf8),
            request: HTTPRequest(method: .get, baseEndpoint: "https://api.example.com"))
        let encoded = try ResponseDecoding<HTTPResponse>.response.encoder?.encode(response)
        #expect(encoded == EncodedResponse(statusCode: 418, headers: ["X-Teapot": "yes"], body: Data("short".utf8)))
    }
}
