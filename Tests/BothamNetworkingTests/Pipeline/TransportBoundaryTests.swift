import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

@Suite("The transport is given a prepared request, checked and encoded once", .timeLimit(.minutes(1)))
struct TransportBoundaryTests {
    /// Records what it is given, as a transport sees it.
    final class InspectingTransport: HTTPClient {
        let received = Recorder<HTTPRequest>()
        /// Whether each request it received records a change after preparation.
        let changed = Recorder<Bool>()
        /// Whether its call had prepared each request it received.
        let prepared = Recorder<Bool>()

        func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
            received.append(request)
            changed.append(request.changedAfterPreparation)
            prepared.append(request.isPrepared)
            return HTTPResponse(statusCode: 200, request: request)
        }
    }

    /// Whether `a` and `b` are one value: the same storage, not merely equal fields.
    static func sameStorage(_ a: HTTPRequest, _ b: HTTPRequest) -> Bool {
        a.storageIdentity == b.storageIdentity
    }

    /// Replaces the body after the client prepared the request.
    struct SettingJSONBody: HTTPInterceptor {
        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            #expect(request.isPrepared)
            return try await next(request.withBody(.json(["late": true])))
        }
    }

    @Test("a request through the client reaches the transport prepared, its body the bytes that go on the wire")
    func preparedAtTheTransport() async throws {
        let transport = InspectingTransport()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: transport)

        _ = try await apiClient.response(for: apiClient.request(.post, "/items", body: ["name": "botham"]))

        let sent = try #require(transport.received.values.first)
        #expect(transport.prepared.values == [true])
        #expect(sent.body == .data(Data(#"{"name":"botham"}"#.utf8)))
        #expect(sent.headers[.contentType] == "application/json")
    }

    @Test("a body an onion interceptor sets after preparation is encoded once, before the transport gets it")
    func changedByAnInterceptor() async throws {
        let transport = InspectingTransport()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: transport)
        apiClient.interceptors.append(SettingJSONBody())

        _ = try await apiClient.response(for: apiClient.request(.post, "/items"))

        let sent = try #require(transport.received.values.first)
        #expect(transport.prepared.values == [true])
        #expect(transport.changed.values == [true])
        #expect(sent.body == .data(Data(#"{"late":true}"#.utf8)))
        #expect(sent.headers[.contentType] == "application/json")
    }

    @Test("an interceptor that leaves the request alone hands the transport the request it was given")
    func unchangedIsNotPreparedAgain() async throws {
        struct Observing: HTTPInterceptor {
            let seen: Recorder<HTTPRequest>
            func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
                -> HTTPResponse
            {
                seen.append(request)
                #expect(request.isPrepared)
                return try await next(request)
            }
        }
        let transport = InspectingTransport()
        let seen = Recorder<HTTPRequest>()
        let apiClient = BothamAPIClient(baseEndpoint: "https://api.example.com", httpClient: transport)
        apiClient.interceptors.append(Observing(seen: seen))

        _ = try await apiClient.response(for: apiClient.request(.post, "/items", body: ["name": "botham"]))

        let observed = try #require(seen.values.first)
        let sent = try #require(transport.received.values.first)
        #expect(sent == observed)
        #expect(transport.prepared.values == [true])
        // Equality compares the fields only; the transport got the very value the interceptor passed on, and the
        // pipeline did not prepare it again (it would have recorded a change after preparation).
        #expect(Self.sameStorage(sent, observed), "the transport got another value than the one passed on")
        #expect(transport.changed.values == [false])
    }
}
