import BothamNetworking
import BothamNetworkingNative
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

extension TransportIntegrationTests {
    /// `TransportLimits` means the same on both transports: idle time against the whole attempt, the attempt across
    /// redirects, the request's own timeout, connecting, and the two body limits. (The cap, `maxAttemptTimeout`, is
    /// proved by `TransportTimeoutTests` and `TransportFaultTests`; `attemptTimeout` ending a live body by the
    /// conformance check `timeouts.attemptTimeout`, `OwnTransportsConformanceTests`.)
    @Suite("Both transports give each TransportLimits setting the same meaning", .timeLimit(.minutes(1)))
    struct TransportLimitsTests {
        /// Added to a limit for the latest moment it may end a call: the machine is shared by parallel suites.
        static let pastLimit = Duration.milliseconds(1_200)

        /// 80 bytes, 4 every 50 ms: about one second of a body that never stops for long.
        static var trickle: MockResponse {
            MockResponse().withBody(TransportTest.pattern(count: 80)).throttled(bytes: 4, per: .milliseconds(50))
        }

        @Test("both transports start from the same default limits")
        func sameDefaults() {
            let native = NativeHTTPClient().configuration.limits
            #expect(URLSessionHTTPClient().configuration.limits == native)
            #expect(native == TransportLimits())
            #expect(native.connectTimeout == .seconds(10) && native.idleTimeout == .seconds(60))
            #expect(native.attemptTimeout == .seconds(60) && native.maxAttemptTimeout == nil)
            #expect(native.maxResponseBytes == 64 << 20 && native.maxFileResponseBytes == nil)
        }

        @Test(
            "idleTimeout ends an attempt whose server goes silent, with no attempt limit",
            arguments: TransportUnderTest.allCases)
        func idleTimeoutEndsSilence(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withSocketPolicy(.noResponse))
            let limits = TransportLimits(idleTimeout: .milliseconds(300), attemptTimeout: nil)

            let (result, duration) = await TransportTest.elapsed {
                await TransportTest.client(transport, server, limits).GET("/silent")
            }

            #expect(result.isTimeout, "\(result)")
            #expect(duration >= .milliseconds(250))
            #expect(
                duration < TestTimeScale.scaled(.milliseconds(300) + Self.pastLimit, during: duration),
                "took \(duration)")
        }

        @Test(
            "a body that keeps coming is never idle: it outlasts idleTimeout and arrives whole",
            arguments: TransportUnderTest.allCases)
        func idleTimeoutSparesALiveBody(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(Self.trickle)
            // Eight times the longest gap the server leaves, not scaled: the body must outlast it to prove anything.
            let idle = Duration.milliseconds(400)
            let limits = TransportLimits(idleTimeout: idle, attemptTimeout: nil)

            let (result, duration) = await TransportTest.elapsed {
                await TransportTest.client(transport, server, limits).GET("/trickle")
            }

            #expect(try result.get().body == TransportTest.pattern(count: 80))
            #expect(duration > idle, "the body took \(duration), no longer than the idle timeout: it proves nothing")
        }

        /// Three hops, each answering after `delay`: /a → /b → /c.
        static func enqueueRedirectChain(on server: MockWebServer, delay: Duration) {
            server.enqueue(contentsOf: [
                MockResponse(statusCode: 302).withHeader("Location", "/b").withHeadersDelay(delay),
                MockResponse(statusCode: 302).withHeader("Location", "/c").withHeadersDelay(delay),
                MockResponse().withBody("done").withHeadersDelay(delay),
            ])
        }

        @Test(
            "attemptTimeout spans every redirect: hops each inside it still time out together",
            arguments: TransportUnderTest.allCases)
        func attemptTimeoutSpansRedirects(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            Self.enqueueRedirectChain(on: server, delay: .milliseconds(250))
            let limits = TransportLimits(idleTimeout: nil, attemptTimeout: .milliseconds(500))

            let (result, duration) = await TransportTest.elapsed {
                await TransportTest.client(transport, server, limits).GET("/a")
            }

            #expect(result.isTimeout, "\(result)")
            #expect(
                duration < TestTimeScale.scaled(.milliseconds(500) + Self.pastLimit, during: duration),
                "took \(duration)")
        }

        @Test(
            "idleTimeout restarts at every redirect: hops each inside it succeed together",
            arguments: TransportUnderTest.allCases)
        func idleTimeoutRestartsAtRedirects(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            Self.enqueueRedirectChain(on: server, delay: .milliseconds(250))
            let idle = TestTimeScale.scaled(.milliseconds(500))
            let limits = TransportLimits(idleTimeout: idle, attemptTimeout: nil)

            let (result, duration) = await TransportTest.elapsed {
                await TransportTest.client(transport, server, limits).GET("/a")
            }

            #expect(try result.get().body == Data("done".utf8))
            #expect(duration > .milliseconds(750))
        }

        @Test(
            "a request's own timeout replaces attemptTimeout and idleTimeout",
            arguments: TransportUnderTest.allCases)
        func requestTimeoutReplacesTheDefaults(transport: TransportUnderTest) async throws {
            let server = try MockWebServer()
            defer { server.shutdown() }
            server.enqueue(MockResponse().withBody("late").withHeadersDelay(.milliseconds(600)))
            let limits = TransportLimits(idleTimeout: .milliseconds(200), attemptTimeout: .milliseconds(200))
            let apiClient = TransportTest.client(transport, server, limits)

            let request = apiClient.request(.get, "/late").withTimeout(TestTimeScale.scaled(.seconds(3)))
            let result = await apiClient.send(request)

            #expect(try result.get().body == Data("late".utf8))
        }

        @Test(
            "connectTimeout bounds the TLS handshake on native; URLSession, which cannot see it, ends at idleTimeout",
            arguments: TransportUnderTest.allCases)
        func connectTimeout(transport: TransportUnderTest) async throws {
            let listener = try UnacceptedListener()
            let limits = TransportLimits(
                connectTimeout: .milliseconds(300), idleTimeout: .seconds(2), attemptTimeout: nil)
            let apiClient = BothamAPIClient(
                baseEndpoint: "https://127.0.0.1:\(listener.port)",
                httpClient: transport.make(limits),
                configuration: .init(maxRetries: 0, validation: .acceptAll)
            )

            let (result, duration) = await TransportTest.elapsed { await apiClient.GET("/never") }

            #expect(result.isTimeout, "\(result)")
            switch transport {
            case .native, .nativeTwoLoops, .nativeHTTP2:
                #expect(
                    duration < TestTimeScale.scaled(.milliseconds(300) + Self.pastLimit, during: duration),
                    "took \(duration)")
            case .urlSession:
                #expect(duration >= .milliseconds(1_900), "took \(duration)")
                #expect(
                    duration < TestTimeScale.scaled(.seconds(2) + Self.pastLimit, during: duration), "took \(duration)")
            }
            withExtendedLifetime(listener) {}
        }

        @Test(
            "maxResponseBytes bounds bodies held in memory, maxFileResponseBytes bodies going to a file",
            arguments: TransportUnderTest.allCases, [false, true])
        func memoryAndFileLimits(transport: TransportUnderTest, chunked: Bool) async throws {
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let server = try MockWebServer()
            defer { server.shutdown() }
            let body = TransportTest.pattern(count: 200_000)
            let response = MockResponse().withBody(body)
            for _ in 0..<2 { server.enqueue(chunked ? response.chunked(chunkSize: 8192) : response) }
            // Past the file limit too.
            let large = MockResponse().withBody(TransportTest.pattern(count: 400_000))
            server.enqueue(chunked ? large.chunked(chunkSize: 8192) : large)
            let limits = TransportLimits(maxResponseBytes: 100_000, maxFileResponseBytes: 300_000)
            let apiClient = BothamAPIClient(
                baseEndpoint: server.baseURL.absoluteString,
                httpClient: transport.make(limits),
                configuration: .init(maxRetries: 0)
            )

            let inMemory = await apiClient.GET("/body")
            let destination = folder.file("body.bin")
            let toFile = await apiClient.download("/body", to: .file(destination))

            #expect(TransportTest.networkFailureKind(inMemory) == .responseTooLarge, "\(inMemory)")
            #expect(try toFile.get().bodyFileURL == destination)
            #expect(try Data(contentsOf: destination) == body)
            let tooLarge = await apiClient.download("/large", to: .file(folder.file("large.bin")))
            #expect(TransportTest.networkFailureKind(tooLarge) == .responseTooLarge, "\(tooLarge)")
        }
    }
}
