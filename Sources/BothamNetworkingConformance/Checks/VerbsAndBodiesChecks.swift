import BothamNetworking
import BothamNetworkingTesting
import Foundation

extension ConformanceCheck {
    /// Every method reaches the server by its name, and a `HEAD` response has no body.
    package static let methods = ConformanceCheck(
        .verbsAndBodies, "methods", "every method reaches the server by its name, and a HEAD response has no body"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        for method in [HTTPMethod.get, .post, .put, .patch, .delete, .head, .options] {
            server.enqueue(MockResponse().withBody("done"))
            let request = apiClient.request(method, "/verbs")
            let response = try await context.response("\(method.rawValue) /verbs") { await apiClient.send(request) }
            let recorded = try await context.take(server, "the \(method.rawValue)")
            try expect(recorded.method == method, "sent \(method.rawValue), the server received \(recorded.method)")
            try expect(recorded.path == "/verbs", "\(method.rawValue): the server received the path \(recorded.path)")
            try expect(response.statusCode == 200, "\(method.rawValue): status \(response.statusCode), not 200")
            let expected = method == .head ? Data() : Data("done".utf8)
            try expect(response.body == expected, "\(method.rawValue): body of \(response.body.count) bytes")
        }
    }

    /// JSON, form and binary request bodies arrive byte for byte with their `Content-Type`.
    package static let requestBodies = ConformanceCheck(
        .verbsAndBodies, "requestBodies", "JSON, form and binary bodies arrive byte for byte with their Content-Type"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [MockResponse(), MockResponse(), MockResponse()])
        let apiClient = context.apiClient(server)
        let binary = Data([0x00, 0xFF, 0x0D, 0x0A, 0x80]) + conformancePattern(count: 300_000)

        _ = try await context.response("POST JSON") { await apiClient.POST("/json", body: ["name": "Ada"]) }
        _ = try await context.response("PUT form") {
            await apiClient.PUT("/form", body: .form(["a": "1 2", "b": "x&y"]))
        }
        _ = try await context.response("PATCH bytes") {
            await apiClient.PATCH("/bin", body: .data(binary, contentType: "application/octet-stream"))
        }

        let json = try await context.take(server, "the JSON POST")
        try expect(json.bodyAsString == #"{"name":"Ada"}"#, "JSON body arrived as \(json.bodyAsString ?? "bytes")")
        try expect(
            json.header("Content-Type") == "application/json",
            "JSON Content-Type: \(json.header("Content-Type") ?? "none")")
        let form = try await context.take(server, "the form PUT")
        try expect(form.method == .put, "the form was sent with \(form.method)")
        try expect(form.bodyAsString == "a=1%202&b=x%26y", "form body arrived as \(form.bodyAsString ?? "bytes")")
        let bytes = try await context.take(server, "the binary PATCH")
        try expect(
            bytes.body == binary, "a \(binary.count)-byte body arrived as \(bytes.body.count) bytes, not the same")
        try expect(
            bytes.header("Content-Type") == "application/octet-stream",
            "binary Content-Type: \(bytes.header("Content-Type") ?? "none")")
    }

    /// Query items arrive in order and percent-encoded as the client built them.
    package static let query = ConformanceCheck(
        .verbsAndBodies, "query", "query items arrive in order, encoded as the client built them"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse())
        let apiClient = context.apiClient(server)

        _ = try await context.response("GET /search") {
            await apiClient.GET("/search", parameters: ["q": "a b&c", "page": "2"])
        }

        let recorded = try await context.take(server)
        try expect(recorded.path == "/search", "path \(recorded.path)")
        try expect(recorded.queryItems.map(\.name) == ["q", "page"], "query \(recorded.query ?? "none")")
        try expect(recorded.queryItems.first?.value == "a b&c", "query \(recorded.query ?? "none")")
    }

    /// The status, the body and the final URL come back; a 4xx or 5xx is a response, not an error.
    package static let responses = ConformanceCheck(
        .verbsAndBodies, "responses", "status, body and URL come back, and a 4xx or 5xx is a response, not an error"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        let body = conformancePattern(count: 200_000)
        for status in [201, 400, 404, 500, 503] {
            server.enqueue(MockResponse(statusCode: status).withBody(body))
            let response = try await context.response("GET answered with \(status)") { await apiClient.GET("/s") }
            try expect(
                response.statusCode == status,
                "the server answered \(status), the transport said \(response.statusCode)")
            try expect(
                response.body == body, "\(status): a \(body.count)-byte body came back as \(response.body.count) bytes")
            try expect(
                response.url == server.url("/s"),
                "\(status): the response URL is \(response.url?.absoluteString ?? "none")")
        }
    }

    /// gzip and deflate bodies come back decoded, without the stale `Content-Encoding` and `Content-Length`.
    package static let decodedBodies = ConformanceCheck(
        .verbsAndBodies, "decodedBodies",
        "gzip and deflate bodies come back decoded, without stale Content-Encoding and Content-Length"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        let encoded = [
            ("gzip", "H4sIAAAAAAACA6tWSi9KTS3JzEtXslLKSM3JyVcYOaRSLQAZj1Ky/wAAAA=="),
            ("deflate", "eJyrVkovSk0tycxLV7JSykjNyclXGDmkUi0AnTddMA=="),
        ]
        let decoded = Data((#"{"greeting":""# + String(repeating: "hello ", count: 40) + #""}"#).utf8)
        for (coding, base64) in encoded {
            let compressed = try require(Data(base64Encoded: base64), "the \(coding) sample")
            server.enqueue(MockResponse().withHeader("Content-Encoding", coding).withBody(compressed))
            let response = try await context.response("GET \(coding)") { await apiClient.GET("/compressed") }
            try expect(response.body == decoded, "\(coding): \(response.body.count) bytes, not the decoded 255")
            try expect(response.headers[.contentEncoding] == nil, "\(coding): Content-Encoding is still there")
            try expect(response.headers[.contentLength] == nil, "\(coding): the encoded Content-Length is still there")
        }
        server.enqueue(MockResponse().withBody("12345"))
        let plain = try await context.response("GET identity") { await apiClient.GET("/plain") }
        try expect(plain.headers[.contentLength] == "5", "an identity body lost its Content-Length")
    }
}
