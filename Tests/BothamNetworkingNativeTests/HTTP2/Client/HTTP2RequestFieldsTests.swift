import BothamHTTP2Wire
import BothamNetworking
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite("A request head as HTTP/2 fields (RFC 9113 §8.3.1, §8.2.2)")
struct HTTP2RequestFieldsTests {
    private static func head(
        method: String = "GET", headers: HTTPHeaders = [:], bodyLength: Int? = nil, chunked: Bool = false
    ) -> RequestHead {
        RequestHead(
            http1: Data(), method: method, origin: Origin(scheme: "https", host: "api.example.com", port: 443),
            path: "/v1/items?page=2",
            headers: headers, bodyLength: bodyLength, chunked: chunked)
    }

    private static func pairs(_ fields: [HPACKHeaderField]) -> [String] {
        fields.map { "\(String(decoding: $0.name, as: UTF8.self)): \(String(decoding: $0.value, as: UTF8.self))" }
    }

    @Test("The pseudo-fields come first, then the request's fields with lowercase names")
    func pseudoFieldsFirst() {
        let fields = HTTP2RequestFields.make(
            Self.head(headers: ["Accept": "application/json", "X-Trace": "abc"]), neverIndexed: { _ in false })

        #expect(
            Self.pairs(fields) == [
                ":method: GET", ":scheme: https", ":authority: api.example.com", ":path: /v1/items?page=2",
                "accept: application/json", "x-trace: abc",
            ])
    }

    @Test("Connection-specific fields, and those the Connection field names, are not sent; Host becomes :authority")
    func hopByHopFieldsDropped() {
        let headers: HTTPHeaders = [
            "Connection": "keep-alive, X-Hop", "Keep-Alive": "timeout=5", "Proxy-Connection": "keep-alive",
            "Transfer-Encoding": "chunked", "Upgrade": "websocket", "X-Hop": "1", "TE": "gzip",
            "Host": "other.example.com", "Accept": "*/*",
        ]
        let fields = HTTP2RequestFields.make(Self.head(headers: headers), neverIndexed: { _ in false })

        #expect(
            Self.pairs(fields) == [
                ":method: GET", ":scheme: https", ":authority: other.example.com", ":path: /v1/items?page=2",
                "accept: */*",
            ])
    }

    @Test("TE: trailers is the one TE allowed, and content-length is the body's own")
    func teTrailersAndContentLength() {
        let fields = HTTP2RequestFields.make(
            Self.head(method: "POST", headers: ["TE": "trailers", "Content-Length": "999"], bodyLength: 12),
            neverIndexed: { _ in false })
        let emptyPost = HTTP2RequestFields.make(Self.head(method: "POST"), neverIndexed: { _ in false })
        let streamed = HTTP2RequestFields.make(Self.head(method: "POST", chunked: true), neverIndexed: { _ in false })

        #expect(Self.pairs(fields).suffix(2) == ["te: trailers", "content-length: 12"])
        #expect(Self.pairs(emptyPost).last == "content-length: 0")
        #expect(!Self.pairs(streamed).contains { $0.hasPrefix("content-length") })
    }

    @Test("Fields the client's redactor hides are never indexed; the others may be")
    func sensitiveFieldsAreNeverIndexed() {
        let redactor = Redactor(headerNames: ["X-Internal-Id"])
        let fields = HTTP2RequestFields.make(
            Self.head(headers: [
                "Authorization": "Bearer t", "Cookie": "a=b", "X-Session-Token": "s", "X-Internal-Id": "7",
                "Accept": "*/*",
            ]),
            neverIndexed: { redactor.redacts(header: $0) })
        let neverIndexed = fields.filter(\.neverIndexed).map { String(decoding: $0.name, as: UTF8.self) }

        #expect(neverIndexed == ["authorization", "cookie", "x-session-token", "x-internal-id"])
    }
}
