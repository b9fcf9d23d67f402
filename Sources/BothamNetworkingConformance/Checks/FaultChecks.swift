import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// The deadline of every socket and response fault (docs/FaultMatrix.md: "< 2 s"), before scaling.
let faultDeadline = Duration.seconds(2)

extension ConformanceCheck {
    /// A check that `response` (served for every request) ends a `GET` with one of `kinds` within the deadline.
    static func fault(
        _ name: String, _ title: String, _ response: MockResponse, _ kinds: Set<APIClientError.NetworkFailure.Kind>,
        limits: TransportLimits = TransportLimits(), redirectPolicy: RedirectPolicy = .follow
    ) -> ConformanceCheck {
        ConformanceCheck(.faults, name, title) { context in
            let server = try context.server()
            defer { server.shutdown() }
            server.setDispatcher { _ in response }
            let apiClient = context.apiClient(server, limits: limits, redirectPolicy: redirectPolicy)
            let request = apiClient.request(.get, "/fault").withTimeout(.seconds(3))

            let (result, duration) = try await context.timed(within: faultDeadline * 2, "the GET") {
                await apiClient.send(request)
            }

            let expected = kinds.map { "networkError(\($0))" }.sorted().joined(separator: " or ")
            try expect(
                result.networkFailureKind.map(kinds.contains) == true, "ended with \(result.summary), not \(expected)")
            let latest = context.latest(faultDeadline, for: duration)
            try expect(duration < latest, "took \(duration), longer than \(latest)")
        }
    }

    /// Connecting to a port nobody listens on ends with `networkError(cannotConnect)`.
    package static let faultConnectionRefused = ConformanceCheck(
        .faults, "connectionRefused", "a refused connection ends with networkError(cannotConnect) within 2 s"
    ) { context in
        let server = try context.server()
        let url = server.url("/gone")
        server.shutdown()
        let apiClient = BothamAPIClient(
            baseEndpoint: url.absoluteString, httpClient: context.makeClient(ConformanceClientConfiguration()),
            configuration: .init(maxRetries: 0, validation: .acceptAll))

        let (result, duration) = try await context.timed(within: faultDeadline * 2, "the GET") {
            await apiClient.GET("")
        }

        try expect(result.networkFailureKind == .cannotConnect, "ended with \(result.summary), not cannotConnect")
        let latest = context.latest(faultDeadline, for: duration)
        try expect(duration < latest, "took \(duration), longer than \(latest)")
    }

    /// A connection closed before any response byte ends with `networkError(badServerResponse)`.
    package static let faultClosedBeforeResponse = fault(
        "closedBeforeResponse", "a connection closed before the response ends with networkError(badServerResponse)",
        MockResponse().withSocketPolicy(.disconnectAtStart), [.badServerResponse])

    /// A reset before the response ends with `networkError(connectionLost)`.
    package static let faultReset = fault(
        "reset", "a reset (RST) before the response ends with networkError(connectionLost)",
        MockResponse().withBody(conformancePattern(count: 4096)).withSocketPolicy(.resetConnection), [.connectionLost])

    /// A connection dropped after the head ends with `networkError(connectionLost)`.
    package static let faultDropAfterHead = fault(
        "dropAfterHead", "a connection dropped after the head ends with networkError(connectionLost)",
        MockResponse().withBody(conformancePattern(count: 4096)).withSocketPolicy(.disconnectAfterHeaders),
        [.connectionLost])

    /// A connection dropped in the middle of the body ends with `networkError(connectionLost)`.
    package static let faultDropMidBody = fault(
        "dropMidBody", "a connection dropped mid-body ends with networkError(connectionLost)",
        MockResponse().withBody(conformancePattern(count: 4096)).withSocketPolicy(.disconnectDuringBody),
        [.connectionLost])

    /// A `Content-Length` larger than the body ends with `networkError(connectionLost)`.
    package static let faultShortBody = fault(
        "shortBody", "a Content-Length larger than the body ends with networkError(connectionLost)",
        MockResponse().withBody(conformancePattern(count: 4096)).withSocketPolicy(.wrongContentLength),
        [.connectionLost])

    /// A chunked body cut before its last chunk ends with `networkError(connectionLost)`.
    package static let faultTruncatedChunkedBody = fault(
        "truncatedChunkedBody", "a chunked body cut before its end ends with networkError(connectionLost)",
        MockResponse().withBody(conformancePattern(count: 4096)).chunked(chunkSize: 512)
            .withSocketPolicy(.truncatedChunkedBody), [.connectionLost])

    /// A malformed status line ends with `networkError(badServerResponse)`.
    package static let faultMalformedStatusLine = fault(
        "malformedStatusLine", "a malformed status line ends with networkError(badServerResponse)",
        MockResponse().withBody("body").withSocketPolicy(.malformedStatusLine), [.badServerResponse])

    /// A header line that is not a field ends with `networkError(badServerResponse)`.
    package static let faultInvalidHeaderLine = fault(
        "invalidHeaderLine", "an invalid header line ends with networkError(badServerResponse)",
        MockResponse().withHeader("Bad Header\u{1}", "x").withBody("body"), [.badServerResponse])

    /// A 300 KiB response head ends with `networkError(badServerResponse)` or `networkError(responseTooLarge)`.
    ///
    /// The one row of the fault matrix where the kind may differ: a transport that cannot tell a head over its
    /// limit from one it cannot parse (URLSession) says `badServerResponse`; one that counts it against a size
    /// limit (`NativeHTTPClient`) says `responseTooLarge`.
    package static let faultOversizedHead = fault(
        "oversizedHead",
        "a 300 KiB response head ends with networkError(badServerResponse) or networkError(responseTooLarge)",
        MockResponse().withHeader("X-Huge", String(repeating: "h", count: 300 * 1_024)),
        [.badServerResponse, .responseTooLarge])

    /// A 401 with `WWW-Authenticate` is a response, within a second, and the connection stays usable.
    package static let faultUnauthorizedIsAResponse = ConformanceCheck(
        .faults, "unauthorizedIsAResponse",
        "a 401 with WWW-Authenticate comes back as a response within 1 s, whatever the challenge"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let apiClient = context.apiClient(server)
        for challenge in ["Basic realm=\"api\"", "Bearer realm=\"api\"", "Digest realm=\"api\", nonce=\"abc\""] {
            server.enqueue(MockResponse(statusCode: 401).withHeader("WWW-Authenticate", challenge).withBody("denied"))
            let (result, duration) = try await context.timed(within: .seconds(2), "a 401 with \(challenge)") {
                await apiClient.GET("/private")
            }
            let response = try result.get()
            try expect(response.statusCode == 401, "\(challenge): status \(response.statusCode), not 401")
            try expect(response.headers[.wwwAuthenticate] == challenge, "\(challenge): WWW-Authenticate changed")
            try expect(response.body == Data("denied".utf8), "\(challenge): the 401's body did not come back")
            let latest = context.latest(.seconds(1), for: duration)
            try expect(duration < latest, "\(challenge): took \(duration), longer than \(latest)")
        }
    }
}
