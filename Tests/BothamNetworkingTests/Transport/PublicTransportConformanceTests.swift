import BothamNetworking
import Foundation
import Testing

/// A transport written only against the public `HTTPClient` protocol, as the README describes it (one method,
/// `send(_:) async throws(APIClientError) -> HTTPResponse`): it echoes what it is sent, and writes the body where a
/// file destination tells it to, as a transport of one's own would.
private struct EchoTransport: HTTPClient {
    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let body = try request.bodyData() ?? Data()
        let headers: HTTPHeaders = [
            "X-Echo-URL": try request.resolvedURL().absoluteString,
            "X-Echo-Content-Type": request.headers[.contentType] ?? "",
        ]
        if let file = request.responseDestination.fileURL {
            do {
                try body.write(to: file)
            } catch {
                throw .httpClientError(underlying: error)
            }
            return HTTPResponse(statusCode: 200, headers: headers, request: request, bodyFileURL: file)
        }
        return HTTPResponse(statusCode: 200, headers: headers, body: body, request: request)
    }
}

@Suite("A transport written against the public HTTPClient protocol still compiles and works", .timeLimit(.minutes(1)))
struct PublicTransportConformanceTests {
    let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: EchoTransport())

    @Test("it is given the resolved URL, the encoded body and its Content-Type")
    func echoes() async throws {
        let response = try await apiClient.POST("/items", parameters: ["page": "2"], body: ["name": "botham"]).get()

        #expect(response.headers["X-Echo-URL"] == "https://api.example.com/items?page=2")
        #expect(response.headers["X-Echo-Content-Type"] == "application/json")
        #expect(response.body == Data(#"{"name":"botham"}"#.utf8))
    }

    @Test("a body it writes where it is told ends up in the caller's destination, and nothing else is left")
    func downloads() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "botham-echo-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("echo.json")

        let response = try await apiClient.download(
            apiClient.request(.post, "/echo", body: ["saved": true]), to: .file(destination)
        ).get()

        #expect(response.bodyFileURL == destination)
        #expect(response.request.responseDestination == .file(destination))
        #expect(try Data(contentsOf: destination) == Data(#"{"saved":true}"#.utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["echo.json"])
    }
}
