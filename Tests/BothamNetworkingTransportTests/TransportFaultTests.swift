import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// The rows of docs/FaultMatrix.md that the conformance suite's `faults` checks do not cover as the document
    /// states them, on both transports within the document's deadline (scaled only by ``TestTimeScale``, which
    /// ThreadSanitizer runs set): a drip past `maxAttemptTimeout`, and the response faults with each transport's kind.
    /// (Connection refused, the socket faults and the stall are the `faults.*` and `timeouts.requestTimeout` checks,
    /// `OwnTransportsConformanceTests`.)
    @Suite("Both transports against MockWebServer: faults map to documented errors", .timeLimit(.minutes(1)))
    struct TransportFaultTests {
        /// docs/FaultMatrix.md: "< 2 s".
        static let deadline = Duration.seconds(2)
        /// docs/FaultMatrix.md: "timeout + < 1.2 s" (and the same past a total deadline).
        static let pastTimeout = Duration.milliseconds(1_200)

        @Test("a body that drips past maxAttemptTimeout ends with .timeout", arguments: TransportUnderTest.allCases)
        func slowDrip(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(
                MockResponse().withBody(TransportTest.pattern(count: 4096)).throttled(
                    bytes: 64, per: .milliseconds(100)))
            let apiClient = TransportTest.client(transport, server, .init(maxAttemptTimeout: .milliseconds(500)))

            let (result, duration) = await TransportTest.elapsed { await apiClient.GET("/drip") }

            #expect(result.isTimeout, "\(result)")
            #expect(
                duration < TestTimeScale.scaled(.milliseconds(500) + Self.pastTimeout, during: duration),
                "took \(duration)")
        }

        /// A response fault of the matrix and the kind each transport gives it.
        struct ResponseFault: Sendable, CustomTestStringConvertible {
            let name: String
            let response: MockResponse
            let urlSession: APIClientError.NetworkFailure.Kind
            let native: APIClientError.NetworkFailure.Kind
            var limits = TransportLimits()
            var redirectPolicy = RedirectPolicy.follow

            var testDescription: String { name }

            func expected(on transport: TransportUnderTest) -> APIClientError.NetworkFailure.Kind {
                transport.isNative ? native : urlSession
            }
        }

        static let responseFaults: [ResponseFault] = [
            ResponseFault(
                name: "invalid header line",
                response: MockResponse().withHeader("Bad Header\u{1}", "x").withBody("body"),
                urlSession: .badServerResponse, native: .badServerResponse),
            // The one row where the transports differ: libcurl refuses a head over its 100 KiB limit as a response
            // it cannot parse, native counts the head against `maxHeaderBytes` (64 KiB) like any other size limit.
            ResponseFault(
                name: "oversized headers (300 KiB)",
                response: MockResponse().withHeader("X-Huge", String(repeating: "h", count: 300 * 1_024)),
                urlSession: .badServerResponse, native: .responseTooLarge),
            ResponseFault(
                name: "body larger than maxResponseBytes",
                response: MockResponse().withBody(Data(repeating: 0x62, count: 512 * 1_024)),
                urlSession: .responseTooLarge, native: .responseTooLarge,
                limits: TransportLimits(maxResponseBytes: 64 * 1_024)),
            ResponseFault(
                name: "redirect loop",
                response: MockResponse(statusCode: 302).withHeader("Location", "/fault"),
                urlSession: .tooManyRedirects, native: .tooManyRedirects,
                redirectPolicy: .followAtMost(5)),
        ]

        @Test(
            "each response fault ends with its documented error within its deadline",
            arguments: TransportUnderTest.allCases, responseFaults)
        func responseFault(transport: TransportUnderTest, fault: ResponseFault) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.setDispatcher { _ in fault.response }
            let apiClient = TransportTest.client(
                transport, server, fault.limits, redirectPolicy: fault.redirectPolicy)

            let request = apiClient.request(.get, "/fault").withTimeout(.seconds(3))
            let (result, duration) = await TransportTest.elapsed { await apiClient.send(request) }

            #expect(TransportTest.networkFailureKind(result) == fault.expected(on: transport), "\(result)")
            #expect(duration < TestTimeScale.scaled(Self.deadline, during: duration), "\(fault.name) took \(duration)")
        }
    }
}
