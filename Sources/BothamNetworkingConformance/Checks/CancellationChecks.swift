import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// How long after the cancel a call may take to end (docs/FaultMatrix.md: "< 1 s after the cancel"), before scaling.
let cancellationDeadline = Duration.seconds(1)

extension ConformanceContext {
    /// Starts `call` in a task, cancels it once `server` has received the request (and `after` more has passed),
    /// and checks that it ends with `.cancelled` within a second of the cancel (scaled).
    func expectCancelled(
        _ what: String, on server: MockWebServer, after delay: Duration = .zero,
        _ call: @escaping @Sendable () async -> Result<HTTPResponse, APIClientError>
    ) async throws(ConformanceFailure) {
        let task = Task { await call() }
        defer { task.cancel() }
        _ = try await take(server, "the request to cancel")
        if delay > .zero { try? await Task.sleep(for: delay) }
        task.cancel()
        let (result, duration) = try await timed(within: cancellationDeadline * 3, "\(what), cancelled,") {
            await task.value
        }
        try expect(result.isCancelled, "\(what): cancelled, it ended with \(result.summary), not .cancelled")
        let latest = self.latest(cancellationDeadline, for: duration)
        try expect(duration < latest, "\(what) ended \(duration) after the cancel, later than \(latest)")
    }
}

extension ConformanceCheck {
    /// A task cancelled before the transport is called sends nothing.
    package static let cancelledBeforeStart = ConformanceCheck(
        .cancellation, "beforeStart", "a send from a task cancelled before it starts throws and sends nothing"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        let transport = context.makeClient(ConformanceClientConfiguration())
        let request = HTTPRequest(method: .get, url: server.url("/never"))

        let result = try await context.send("a send from a cancelled task") {
            let call = Task { () async -> Result<HTTPResponse, APIClientError> in
                withUnsafeCurrentTask { $0?.cancel() }
                do throws(APIClientError) {
                    return .success(try await transport.send(request))
                } catch {
                    return .failure(error)
                }
            }
            return await call.value
        }
        try expect(result.error != nil, "a cancelled task's send returned \(result.summary)")
        // Give a request that went out anyway the time to arrive.
        try? await Task.sleep(for: .milliseconds(100))
        try expect(server.requestCount == 0, "a cancelled task's send reached the server")
    }

    /// Cancelling the task while the server has not answered ends the call with `.cancelled` at once.
    package static let cancelWhileWaiting = ConformanceCheck(
        .cancellation, "whileWaitingForHead",
        "cancelling while the server has not answered ends with .cancelled at once"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withSocketPolicy(.noResponse))
        let apiClient = context.apiClient(server)

        try await context.expectCancelled("a stalled GET", on: server) { await apiClient.GET("/stall") }
    }

    /// Cancelling the task while the body arrives ends the call with `.cancelled` at once; the next call works.
    package static let cancelMidBody = ConformanceCheck(
        .cancellation, "midBody",
        "cancelling while the body arrives ends with .cancelled at once, and the next call works"
    ) { context in
        let server = try context.server()
        defer { server.shutdown() }
        server.enqueue(
            MockResponse().withBody(conformancePattern(count: 10_000)).throttled(bytes: 100, per: .milliseconds(100)))
        server.enqueue(MockResponse().withBody("fine"))
        let apiClient = context.apiClient(server)

        try await context.expectCancelled("a GET with a slow body", on: server, after: .milliseconds(150)) {
            await apiClient.GET("/slow")
        }
        let after = try await context.response("the next GET") { await apiClient.GET("/after") }
        try expect(after.body == Data("fine".utf8), "the next call's body came back as \(after.body.count) bytes")
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The error, or `nil` for a response.
    var error: APIClientError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
