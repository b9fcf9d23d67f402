import BothamNetworking
import BothamNetworkingTesting
import Foundation
import Testing

@Suite("Multipart bodies parse back to their parts", .timeLimit(.minutes(1)))
struct MultipartFormDataTests {
    static let allBytes = Data((0...255).map { UInt8($0) } + Array("\r\n--\r\n".utf8))

    @Test("text fields and data files keep names, filenames, content types and exact bytes")
    func fieldsAndFiles() throws {
        var form = MultipartFormData()
        form.append("Jane Doe", name: "user")
        form.append("línea 1\r\nlínea 2", name: "bio")
        form.append(Self.allBytes, name: "blob", filename: "blob.bin")
        form.append(Data("{}".utf8), name: "meta", contentType: "application/json")
        form.append(Data(), name: "empty", filename: "empty.txt", contentType: "text/plain")
        let data = try form.encoded()
        #expect(try form.contentLength() == data.count)
        let parts = try MultipartParser.parse(data, boundary: form.boundary)
        #expect(parts.count == 5)
        #expect(parts[0].headers == [#"Content-Disposition: form-data; name="user""#])
        #expect(parts[0].content == Data("Jane Doe".utf8))
        #expect(parts[1].content == Data("línea 1\r\nlínea 2".utf8))
        #expect(parts[2].disposition == #"form-data; name="blob"; filename="blob.bin""#)
        #expect(parts[2].contentType == "application/octet-stream")
        #expect(parts[2].content == Self.allBytes)
        #expect(parts[3].disposition == #"form-data; name="meta""#)
        #expect(parts[3].contentType == "application/json")
        #expect(parts[4].content.isEmpty)
        #expect(parts[4].contentType == "text/plain")
    }

    @Test("quotes, CR and LF in names and filenames are percent-encoded; other Unicode is sent as UTF-8")
    func escaping() throws {
        var form = MultipartFormData()
        form.append("x", name: "a\"b\r\nc")
        form.append(Data([1]), name: "file", filename: "résumé \"final\".pdf", contentType: "application/pdf")
        let parts = try MultipartParser.parse(try form.encoded(), boundary: form.boundary)
        #expect(parts[0].disposition == #"form-data; name="a%22b%0D%0Ac""#)
        #expect(parts[1].disposition == #"form-data; name="file"; filename="résumé %22final%22.pdf""#)
    }

    @Test("an empty form is just the closing delimiter")
    func emptyForm() throws {
        let form = MultipartFormData(boundary: "b")
        #expect(try form.encoded() == Data("--b--\r\n".utf8))
    }

    @Test("random boundaries differ and set the Content-Type")
    func boundaries() {
        let first = MultipartFormData()
        let second = MultipartFormData()
        #expect(first.boundary != second.boundary)
        #expect(first.boundary.count == 39)
        #expect(first.contentType == "multipart/form-data; boundary=\(first.boundary)")
        #expect(MultipartFormData(boundary: "a b?").contentType == #"multipart/form-data; boundary="a b?""#)
    }

    @Test("content that holds the delimiter, or an invalid boundary, is an invalid request")
    func collisions() {
        var form = MultipartFormData(boundary: "xyz")
        form.append(Data("before --xyz after".utf8), name: "f")
        #expect(throws: APIClientError.self) { try form.encoded() }
        for bad in ["", String(repeating: "a", count: 71), "tab\there", "ends with space ", "naïve"] {
            var invalid = MultipartFormData(boundary: bad)
            invalid.append("x", name: "f")
            #expect(throws: APIClientError.self) { try invalid.encoded() }
        }
    }

    @Test("the form body reaches the transport with its Content-Type")
    func throughTheClient() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .text("ok"))
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: stub)
        var form = MultipartFormData()
        form.append("1", name: "id")
        _ = try await apiClient.POST("/upload", body: .multipart(form)).get()
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.headers[.contentType] == form.contentType)
        #expect(sent.body?.fileURL == nil)
        let parts = try MultipartParser.parse(try #require(try sent.bodyData()), boundary: form.boundary)
        #expect(parts.map(\.content) == [Data("1".utf8)])
    }
}
