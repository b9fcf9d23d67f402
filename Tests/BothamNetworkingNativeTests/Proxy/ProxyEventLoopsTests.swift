import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworkingNative

@Suite(
    "Proxies on a client with several event loops (tinyproxy, danted)",
    .serialized,
    .timeLimit(.minutes(1)),
    .enabled(
        if: taskExecutorsAvailable && ProxyTestEnvironment.httpProxy != nil && ProxyTestEnvironment.socksProxy != nil,
        "BOTHAM_TEST_HTTP_PROXY or BOTHAM_TEST_SOCKS_PROXY unset: \(ProxyTestEnvironment.skipReason)"
    )
)
struct ProxyEventLoopsTests {
    @Test("Calls on each of two loops through a SOCKS5 proxy reuse their loop's tunnel: two connections at the origin")
    func socksPerLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await socksBody() }
    }

    @Test("Calls on each of two loops through an HTTP proxy are forwarded by it: Via at the origin")
    func httpProxyPerLoop() async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { try await httpBody() }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ProxyEventLoopsTests {
    /// Two calls on each loop of a two-loop client through `proxies`, loop 0's first; the requests the origin saw.
    private func twoCallsPerLoop(through proxies: ProxyConfiguration) async throws -> [RecordedRequest] {
        let server = try recordingServer()
        defer { server.shutdown() }
        let client = proxiedClient(proxies) { $0.eventLoops = .count(2) }
        let executors = client.taskExecutors
        try #require(executors.count == 2)
        for (index, executor) in executors.enumerated() {
            for call in 0..<2 {
                let status = try await withTaskExecutorPreference(executor) {
                    try await client.send(get(server, "/loop\(index)/\(call)")).statusCode
                }
                #expect(status == 200)
            }
        }
        return try await server.takeRecordedRequests()
    }

    func socksBody() async throws {
        let requests = try await twoCallsPerLoop(
            through: .all(try ProxyTestEnvironment.proxy(ProxyTestEnvironment.socksProxy)))
        try #require(requests.count == 4)
        let connections = requests.map(\.connectionIndex)
        #expect(connections[0] == connections[1] && connections[2] == connections[3], "\(connections)")
        #expect(connections[0] != connections[2], "each loop has a tunnel of its own: \(connections)")
    }

    func httpBody() async throws {
        let requests = try await twoCallsPerLoop(
            through: .all(try ProxyTestEnvironment.proxy(ProxyTestEnvironment.httpProxy)))
        try #require(requests.count == 4)
        #expect(requests.map(\.path) == ["/loop0/0", "/loop0/1", "/loop1/0", "/loop1/1"])
        for request in requests {
            #expect(request.header("Via")?.contains("tinyproxy") == true, "\(request.headers)")
        }
    }
}
