import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// Records the request as the innermost network interceptor saw it: the request the transport is given.
private struct LastInterceptor: HTTPInterceptor {
    let seen: Lock<[HTTPRequest]>

    func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        seen.withLock { $0.append(request) }
        return try await next(request)
    }
}

/// Header fields a transport adds while sending (framing), which the request it is given does not hold.
private let framingFields: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

/// `headers` without the framing fields, as sorted `name: value` lines with lowercased names.
private func wireLines(_ headers: HTTPHeaders) -> [String] {
    headers.fields.filter { !framingFields.contains($0.name.rawName.lowercased()) }
        .map { "\($0.name.rawName.lowercased()): \($0.value)" }.sorted()
}

extension ConformanceCheck {
    /// The server receives the request's header fields as given, and no others but framing.
    package static let requestFieldsAsGiven = ConformanceCheck(
        .headers, "requestFieldsAsGiven",
        "the server receives the request's fields as given, adding none but Host, Content-Length, Transfer-Encoding and Connection"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [MockResponse(), MockResponse()])
        let apiClient = context.apiClient(server)
        let seen = Lock<[HTTPRequest]>([])
        apiClient.networkInterceptors.append(LastInterceptor(seen: seen))

        _ = try await context.response("GET with fields") {
            await apiClient.GET(
                "/mine", headers: ["User-Agent": "mine/1", "Accept": "application/json", "X-Request-Id": "r-1"])
        }
        _ = try await context.response("POST") { await apiClient.POST("/post", body: .text("text")) }

        let given = seen.withLock { $0 }
        try expect(given.count == 2, "the transport was given \(given.count) requests, not 2")
        for (index, sent) in given.enumerated() {
            let recorded = try await context.take(server, "request \(index + 1)")
            let expected = wireLines(sent.headers)
            let received = wireLines(recorded.headers)
            try expect(
                received == expected,
                "\(recorded.method) \(recorded.path): given \(expected), the server received \(received)")
        }
    }

    /// Repeated response fields (two `Set-Cookie`, one of them with a comma in its `Expires`) stay apart, in order.
    package static let repeatedResponseFields = ConformanceCheck(
        .headers, "repeatedResponseFields",
        "repeated Set-Cookie fields come back as separate fields in the server's order, never folded"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let first = "session=abc; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/; HttpOnly"
        server.enqueue(
            MockResponse().withHeader("Set-Cookie", first).withHeader("Set-Cookie", "theme=dark")
                .withHeader("Set-Cookie", "lang=en"))
        let apiClient = context.apiClient(server)

        let response = try await context.response("GET /login") { await apiClient.GET("/login") }

        let values = response.headers.values(for: .setCookie)
        try expect(values == [first, "theme=dark", "lang=en"], "three Set-Cookie fields came back as \(values)")
    }

    /// Response field names are found whatever their case, and request field names keep the case they were given.
    package static let caseInsensitiveNames = ConformanceCheck(
        .headers, "caseInsensitiveNames",
        "response field names are found in any case, and a lowercase request field arrives"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withHeader("x-alpha", "a").withHeader("X-ZETA", "z"))
        let apiClient = context.apiClient(server)

        let response = try await context.response("GET /case") {
            await apiClient.GET("/case", headers: ["x-lower": "l", "X-UPPER": "u"])
        }

        try expect(response.headers["X-Alpha"] == "a", "x-alpha not found as X-Alpha in \(response.headers)")
        try expect(response.headers["x-zeta"] == "z", "X-ZETA not found as x-zeta in \(response.headers)")
        let recorded = try await context.take(server)
        try expect(recorded.header("X-Lower") == "l", "x-lower did not arrive: \(recorded.headers)")
        try expect(recorded.header("x-upper") == "u", "X-UPPER did not arrive: \(recorded.headers)")
    }

    /// Response fields come back in the order the server sent them.
    ///
    /// `URLSessionHTTPClient` cannot keep it (URLSession hands the fields over as a dictionary), so its own run
    /// skips this check; what every transport keeps is the order of a repeated field's values
    /// (``repeatedResponseFields``).
    package static let responseFieldOrder = ConformanceCheck(
        .headers, "responseFieldOrder", "response fields come back in the order the server sent them"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withHeader("X-Zeta", "z").withHeader("X-Alpha", "a").withHeader("X-Mid", "m").withBody(
                "ok"))
        let apiClient = context.apiClient(server)

        let response = try await context.response("GET /order") { await apiClient.GET("/order") }

        let names = response.headers.fields.map { $0.name.rawName.lowercased() }
            .filter { ["x-zeta", "x-alpha", "x-mid"].contains($0) }
        try expect(names == ["x-zeta", "x-alpha", "x-mid"], "sent X-Zeta, X-Alpha, X-Mid; came back as \(names)")
    }
}
