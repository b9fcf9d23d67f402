import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

/// Faults a well-behaved HTTP/2 server never produces on demand, scripted with Python's h2 package
/// (`scripts/h2_faults.py`, started by `scripts/h2-servers.sh`): each ends in a typed error or a retry, never a hang,
/// and the connection serves the next call unless the fault ended it.
@Suite(
    "NativeHTTPClient against HTTP/2 faults (h2_faults.py on PyPI's h2)", H2CServers.needsFaults,
    .timeLimit(.minutes(1)))
struct NativeHTTP2FaultTests {
    private let client = makeClient {
        $0.httpVersion = .http2PriorKnowledge
        // Long enough for a Python server on a busy machine, short enough for the window that never opens.
        $0.limits.idleTimeout = TestTimeScale.scaled(.seconds(2))
    }

    private func request(_ path: String, method: HTTPMethod = .get, body: HTTPBody? = nil) throws -> HTTPRequest {
        HTTPRequest(
            method: method, baseEndpoint: "http://\(try #require(H2CServers.faults))", path: path, body: body)
    }

    private func networkFailure(_ error: APIClientError?) -> APIClientError.NetworkFailure? {
        guard case .networkError(let failure) = error else { return nil }
        return failure
    }

    @Test("RST_STREAM in the middle of a body fails the call with connectionLost; the connection carries on")
    func resetMidBody() async throws {
        let error = await failure(of: try request("/rst-mid-body"), with: client)
        let next = try await client.send(try request("/ok"))

        #expect(networkFailure(error)?.kind == .connectionLost, "\(String(describing: error))")
        #expect(next.body == Data("ok".utf8))
        #expect(await client.openedConnectionCount() == 1)
    }

    @Test("GOAWAY that leaves a request unprocessed: the POST goes again on a new connection and is answered")
    func goAwayMidFlightRetriesOnANewConnection() async throws {
        let response = try await client.send(
            try request("/goaway-once/\(UUID().uuidString)", method: .post, body: .data(Data("once".utf8))))

        #expect(response.statusCode == 200)
        #expect(response.body == Data("after goaway".utf8))
        #expect(await client.openedConnectionCount() == 2)
    }

    @Test("REFUSED_STREAM: the request goes again, whatever its method, and is answered")
    func refusedStreamIsRetried() async throws {
        let response = try await client.send(
            try request("/refuse-once/\(UUID().uuidString)", method: .post, body: .data(Data("once".utf8))))

        #expect(response.body == Data("after refusal".utf8))
    }

    @Test("A server that refuses every time gets the request 4 times (3 retries), then the call fails")
    func refusalsAreBounded() async throws {
        let token = UUID().uuidString
        let error = await failure(of: try request("/refuse-always/\(token)"), with: client)
        let count = try await client.send(try request("/count/\(token)"))

        #expect(networkFailure(error)?.kind == .connectionLost, "\(String(describing: error))")
        #expect(String(decoding: count.body, as: UTF8.self) == "4")
    }

    @Test("REFUSED_STREAM after the head arrived is not 'unprocessed': the call fails and is not sent again")
    func lateRefusalIsALostConnection() async throws {
        let error = await failure(of: try request("/refuse-after-head/\(UUID().uuidString)"), with: client)

        #expect(networkFailure(error)?.kind == .connectionLost, "\(String(describing: error))")
    }

    @Test("REFUSED_STREAM after a streamed head ends the body with an error instead of leaving its reader waiting")
    func lateRefusalEndsAStreamedBody() async throws {
        let api = BothamAPIClient(baseEndpoint: "http://\(try #require(H2CServers.faults))", httpClient: client)
        let streamed = try await api.stream(.get, "/refuse-after-head/\(UUID().uuidString)")
        var received = 0
        let ending: (any Error)? = await {
            do {
                for try await chunk in streamed.body { received += chunk.count }
                return nil
            } catch {
                return error
            }
        }()

        #expect(ending != nil, "the body ended normally after \(received) of 100000 octets")
        #expect(received < 100_000)
    }

    @Test("A window that never opens stalls the upload, and the idle timeout ends the call")
    func zeroWindowTimesOut() async throws {
        let body = Data(repeating: 7, count: 300_000)
        let error = await failure(of: try request("/no-window", method: .post, body: .data(body)), with: client)

        guard case .timeout? = error else {
            Issue.record("expected a timeout, got \(String(describing: error))")
            return
        }
    }

    @Test("A response head over the header limit fails with responseTooLarge, and the next call is answered")
    func oversizedHeadFails() async throws {
        // 100 KB of field block is beyond what the frame decoder buffers (the header list limit): a connection
        // error, so the next call goes over a new connection.
        let error = await failure(of: try request("/big-headers"), with: client)
        let next = try await client.send(try request("/ok"))

        #expect(networkFailure(error)?.kind == .responseTooLarge, "\(String(describing: error))")
        #expect(next.body == Data("ok".utf8))
    }

    @Test("DATA on a stream that already ended leaves its complete response and the connection intact")
    func dataAfterEndIsHarmless() async throws {
        let response = try await client.send(try request("/data-after-end"))
        let next = try await client.send(try request("/ok"))

        #expect(response.body == Data("done".utf8))
        #expect(next.body == Data("ok".utf8))
        #expect(await client.openedConnectionCount() == 1)
    }
}
