import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// A redirect with `status` to `url`.
private func redirect(_ status: Int = 302, to url: URL) -> MockResponse {
    MockResponse(statusCode: status).withHeader("Location", url.absoluteString)
}

/// `count` copies of `chunk`, one element each, from a one-shot sequence.
private func chunks(of chunk: Data, count: Int) -> AsyncStream<Data> {
    AsyncStream { continuation in
        for _ in 0..<count { continuation.yield(chunk) }
        continuation.finish()
    }
}

/// The credentials a redirect to another origin must not carry, and one field it must keep.
private let credentials: HTTPHeaders = [
    "Authorization": "Bearer secret", "Proxy-Authorization": "Basic cHJveHk6cHc=", "Cookie": "session=abc",
    "X-Custom": "kept",
]

/// The credential fields of `request` that are still there.
private func credentialsLeft(in request: RecordedRequest) -> [String] {
    ["Authorization", "Proxy-Authorization", "Cookie"].filter { request.header(HTTPFieldName($0)) != nil }
}

extension ConformanceCheck {
    /// A 301, 302 or 303 after a `POST` is followed with a `GET` without the body.
    package static let redirectPostBecomesGet = ConformanceCheck(
        .redirects, "postBecomesGet", "a 301, 302 or 303 after POST is followed with a GET without the body"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        for status in [301, 302, 303] {
            server.enqueue(contentsOf: [redirect(status, to: server.url("/result")), MockResponse().withBody("end")])
            let response = try await context.response("POST answered with \(status)") {
                await apiClient.POST("/submit", body: .text("form"))
            }
            _ = try await context.take(server, "the POST")
            let followed = try await context.take(server, "the request following the \(status)")
            try expect(followed.method == .get, "\(status): followed with \(followed.method), not GET")
            try expect(followed.body.isEmpty, "\(status): the GET carried a \(followed.body.count)-byte body")
            try expect(followed.path == "/result", "\(status): followed to \(followed.path)")
            try expect(response.body == Data("end".utf8), "\(status): the final body did not come back")
            try expect(
                response.url == server.url("/result"),
                "\(status): response URL \(response.url?.absoluteString ?? "none")")
        }
    }

    /// A 307 or 308 is followed with the same method, body and `Content-Type` (and, to the same origin, the same
    /// `Authorization`).
    package static let redirectKeepsMethodAndBody = ConformanceCheck(
        .redirects, "keepsMethodAndBody",
        "a 307 or 308 is followed with the same method, body, Content-Type and same-origin Authorization"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        let body = conformancePattern(count: 100_000)
        for status in [307, 308] {
            server.enqueue(contentsOf: [redirect(status, to: server.url("/moved")), MockResponse(statusCode: 201)])
            let response = try await context.response("POST answered with \(status)") {
                await apiClient.POST(
                    "/create", headers: ["Authorization": "Bearer secret"], body: .data(body, contentType: "x/y"))
            }
            let original = try await context.take(server, "the POST")
            try expect(original.body == body, "\(status): the first POST's body did not arrive whole")
            let followed = try await context.take(server, "the request following the \(status)")
            try expect(followed.method == .post, "\(status): followed with \(followed.method), not POST")
            try expect(followed.path == "/moved", "\(status): followed to \(followed.path)")
            try expect(followed.body == body, "\(status): the body was \(followed.body.count) bytes on the second hop")
            try expect(followed.header("Content-Type") == "x/y", "\(status): Content-Type lost on the second hop")
            try expect(
                followed.header("Authorization") == "Bearer secret",
                "\(status): Authorization lost on a same-origin hop")
            try expect(response.statusCode == 201, "\(status): final status \(response.statusCode)")
            try expect(
                response.url == server.url("/moved"),
                "\(status): response URL \(response.url?.absoluteString ?? "none")")
        }
    }

    /// After a 307, a body streamed from a one-shot sequence is never sent twice (the call ends with
    /// `invalidRequest`), and a body with a factory is made again and sent whole.
    package static let redirectStreamedBody = ConformanceCheck(
        .redirects, "streamedBody",
        "after a 307 a one-shot streamed body ends the call with invalidRequest; one with a factory is sent again"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        let chunk = conformancePattern(count: 10_000)
        let expected = chunk + chunk + chunk

        server.enqueue(redirect(307, to: server.url("/elsewhere")))
        server.setDefaultResponse(MockResponse(statusCode: 201))
        let oneShot = try await context.send("a POST of a one-shot stream answered with 307") {
            await apiClient.POST("/upload", body: .stream(chunks(of: chunk, count: 3)))
        }
        guard case .failure(.invalidRequest) = oneShot else {
            throw ConformanceFailure(
                reason: "a one-shot body after a 307 ended with \(oneShot.summary), not invalidRequest")
        }
        let first = try await context.take(server, "the one-shot POST")
        try expect(first.body == expected, "the one-shot POST's body was \(first.body.count) bytes, not whole")
        try expect(server.requestCount == 1, "the one-shot body was sent \(server.requestCount) times")

        server.enqueue(redirect(307, to: server.url("/elsewhere")))
        let replayable = try await context.response("a POST of a stream with a factory answered with 307") {
            await apiClient.POST("/upload", body: .stream(replayable: { chunks(of: chunk, count: 3) }))
        }
        _ = try await context.take(server, "the POST with a factory")
        let followed = try await context.take(server, "the request following the 307")
        try expect(followed.path == "/elsewhere", "followed to \(followed.path)")
        try expect(followed.body == expected, "the stream was \(followed.body.count) bytes on the second hop")
        try expect(replayable.statusCode == 201, "final status \(replayable.statusCode)")
    }

    /// A redirect to the same origin keeps `Authorization`, `Proxy-Authorization` and `Cookie`.
    package static let redirectSameOriginKeepsCredentials = ConformanceCheck(
        .redirects, "sameOriginKeepsCredentials",
        "a same-origin redirect keeps Authorization, Proxy-Authorization and Cookie"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(contentsOf: [redirect(to: server.url("/target")), MockResponse().withBody("here")])
        let apiClient = context.apiClient(server)

        let response = try await context.response("GET /start") {
            await apiClient.GET("/start", headers: credentials)
        }

        try expect(response.body == Data("here".utf8), "the final body did not come back")
        try expect(
            response.url == server.url("/target"), "the response URL is \(response.url?.absoluteString ?? "none")")
        _ = try await context.take(server, "the first request")
        let followed = try await context.take(server, "the followed request")
        try expect(followed.path == "/target", "followed to \(followed.path)")
        try expect(followed.header("Authorization") == "Bearer secret", "Authorization dropped on the same origin")
        try expect(followed.header("Proxy-Authorization") == "Basic cHJveHk6cHc=", "Proxy-Authorization dropped")
        try expect(followed.header("Cookie") == "session=abc", "Cookie dropped on the same origin")
    }

    /// A redirect to another origin (another port) drops `Authorization`, `Proxy-Authorization` and `Cookie`.
    package static let redirectCrossOriginStripsCredentials = ConformanceCheck(
        .redirects, "crossOriginStripsCredentials",
        "a 302 or 307 to another origin drops Authorization, Proxy-Authorization and Cookie, and keeps other fields"
    ) { context in
        let first = try context.server()
        defer { first.shutdown() }
        let second = try context.server()
        defer { second.shutdown() }
        let apiClient = context.apiClient(first)
        for status in [302, 307] {
            first.enqueue(redirect(status, to: second.url("/elsewhere")))
            second.enqueue(MockResponse().withBody("other"))
            let response = try await context.response("PUT answered with \(status)") {
                await apiClient.PUT("/start", headers: credentials, body: .text("payload"))
            }
            _ = try await context.take(first, "the first request")
            let followed = try await context.take(second, "the request to the other origin")
            let left = credentialsLeft(in: followed)
            try expect(left.isEmpty, "\(status) to another origin still sent \(left.joined(separator: ", "))")
            try expect(followed.header("X-Custom") == "kept", "\(status): X-Custom was dropped too")
            try expect(response.body == Data("other".utf8), "\(status): the other origin's body did not come back")
        }
    }

    /// Once dropped, credentials stay off when the redirects come back to the first origin.
    package static let redirectStrippedStaysStripped = ConformanceCheck(
        .redirects, "strippedStaysStripped",
        "credentials dropped on the way to another origin stay off when the redirects come back"
    ) { context in
        let first = try context.server()
        defer { first.shutdown() }
        let second = try context.server()
        defer { second.shutdown() }
        first.enqueue(contentsOf: [redirect(to: second.url("/hop")), MockResponse()])
        second.enqueue(redirect(to: first.url("/back")))
        let apiClient = context.apiClient(first)

        _ = try await context.response("GET /start") { await apiClient.GET("/start", headers: credentials) }

        _ = try await context.take(first, "the first request")
        let back = try await context.take(first, "the request back on the first origin")
        try expect(back.path == "/back", "came back to \(back.path)")
        let left = credentialsLeft(in: back)
        try expect(left.isEmpty, "back on the first origin, the request carried \(left.joined(separator: ", ")) again")
    }

    /// A redirect loop ends with `tooManyRedirects`, with the default policy and with `followAtMost(3)`.
    package static let redirectLoop = ConformanceCheck(
        .redirects, "loop", "a redirect loop ends with networkError(tooManyRedirects) under both follow policies"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let loopURL = server.url("/loop")
        server.setDispatcher { _ in redirect(to: loopURL) }
        for policy in [RedirectPolicy.follow, .followAtMost(3)] {
            let apiClient = context.apiClient(server, redirectPolicy: policy)
            let result = try await context.send("GET /loop, at most \(policy.maxRedirects) redirects") {
                await apiClient.GET("/loop")
            }
            try expect(
                result.networkFailureKind == .tooManyRedirects,
                "at most \(policy.maxRedirects) redirects: \(result.summary), not tooManyRedirects")
        }
    }

    /// `followAtMost(n)` follows exactly `n` redirects.
    package static let redirectFollowAtMost = ConformanceCheck(
        .redirects, "followAtMost", "followAtMost(2) follows two redirects, and a third ends with tooManyRedirects"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server, redirectPolicy: .followAtMost(2))
        server.enqueue(contentsOf: [
            redirect(to: server.url("/1")), redirect(to: server.url("/2")), MockResponse().withBody("end"),
        ])
        let response = try await context.response("two redirects") { await apiClient.GET("/0") }
        try expect(response.body == Data("end".utf8), "two redirects did not end at the last response")
        try expect(server.requestCount == 3, "\(server.requestCount) requests for two redirects")

        server.enqueue(contentsOf: [
            redirect(to: server.url("/4")), redirect(to: server.url("/5")), redirect(to: server.url("/6")),
            MockResponse(),
        ])
        let third = try await context.send("three redirects") { await apiClient.GET("/3") }
        try expect(third.networkFailureKind == .tooManyRedirects, "a third redirect gave \(third.summary)")
    }

    /// `doNotFollow` returns the 3xx itself, with its `Location` and body.
    package static let redirectDoNotFollow = ConformanceCheck(
        .redirects, "doNotFollow", "doNotFollow returns the 3xx itself, with its Location and body"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(redirect(301, to: server.url("/new")).withBody("moved"))
        let apiClient = context.apiClient(server, redirectPolicy: .doNotFollow)

        let response = try await context.response("GET /old") { await apiClient.GET("/old") }

        try expect(response.statusCode == 301, "status \(response.statusCode), not the 301")
        try expect(response.headers[.location] == server.url("/new").absoluteString, "Location lost")
        try expect(response.body == Data("moved".utf8), "the 301's body did not come back")
        try expect(server.requestCount == 1, "\(server.requestCount) requests: the redirect was followed")
    }
}
