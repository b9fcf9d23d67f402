import Foundation

/// A real HTTP/1.1 server on the loopback interface for integration tests, modelled on OkHttp's MockWebServer; a
/// client that opens with the HTTP/2 preface (cleartext HTTP/2 with prior knowledge) is served over HTTP/2 on the
/// same port.
///
/// The server starts listening as soon as it is created, on `127.0.0.1` and a free port. Script its answers with
/// ``enqueue(_:)`` (first in, first out) or answer by request with ``setDispatcher(_:)``; when neither has an
/// answer it sends the configuration's default response (an empty `404 Not Found` unless given). Every request is
/// recorded; ``takeRequest(timeout:)`` hands them out in arrival order so a test can assert on exactly what the
/// client sent. ``MockResponse`` can also delay, throttle or break the response (see ``SocketPolicy``).
///
/// Use one server per test and call ``shutdown()`` at the end (it is also called when the server is
/// deinitialized). Shutdown closes every connection, even idle keep-alive ones, and joins every thread the server
/// started.
///
/// ## Testing an API client
///
/// ```swift
/// import BothamNetworkingTesting
/// import Foundation
/// import Testing
///
/// struct User: Codable, Equatable {
///     var id: Int
///     var name: String
/// }
///
/// @Test("fetchUser sends a GET with the token and decodes the user")
/// func fetchUser() async throws {
///     let server = try MockWebServer()
///     defer { server.shutdown() }
///     server.enqueue(MockResponse().withJSONBody(#"{"id": 42, "name": "Ada"}"#))
///
///     let client = UsersClient(baseURL: server.baseURL, token: "secret")  // the client under test
///     let user = try await client.fetchUser(id: 42)
///
///     #expect(user == User(id: 42, name: "Ada"))
///     let request = try await server.takeRequest()
///     #expect(request.method == .get)
///     #expect(request.path == "/users/42")
///     #expect(request.header("Authorization") == "Bearer secret")
/// }
///
/// @Test("fetchUser surfaces a dropped connection as an error")
/// func fetchUserWhenTheServerHangsUp() async throws {
///     let server = try MockWebServer()
///     defer { server.shutdown() }
///     server.enqueue(MockResponse().withBody("{}").withSocketPolicy(.disconnectDuringBody))
///
///     let client = UsersClient(baseURL: server.baseURL, token: "secret")
///     await #expect(throws: (any Error).self) { try await client.fetchUser(id: 42) }
/// }
/// ```
///
/// ## Threads and safety
///
/// One thread accepts connections and each connection is served by its own thread; all waiting uses `poll` with a
/// shutdown signal, so no thread outlives ``shutdown()``. A dispatcher runs on connection threads, possibly
/// several at once, and must not call ``shutdown()`` (a thread cannot join itself). The server writes response
/// headers exactly as given, so tests can send unusual values on purpose.
public final class MockWebServer: Sendable {
    private let core: ServerCore

    /// The address the server listens on, such as `127.0.0.1` or `::1`; the socket path on a Unix domain socket.
    package let host: String
    /// The TCP port the server listens on; 0 on a Unix domain socket.
    public let port: Int
    /// The root URL of the server, such as `http://127.0.0.1:54321` (no trailing slash), or
    /// `http+unix://%2Ftmp%2Fserver.sock` on a Unix domain socket (``Configuration/unixSocketPath``).
    public let baseURL: URL

    /// Starts a server listening with `configuration`.
    /// - Throws: ``MockWebServerError`` when the address is invalid or the socket cannot be bound.
    public init(configuration: Configuration = Configuration()) throws(MockWebServerError) {
        let core = try ServerCore(configuration: configuration)
        if let path = configuration.unixSocketPath {
            // Every byte but the unreserved ones encoded, as the host of an `http+unix` URL needs.
            let encoded = path.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? path
            guard let baseURL = URL(string: "http+unix://\(encoded)") else {
                core.shutdown()
                throw .invalidHost(path)
            }
            self.core = core
            self.host = path
            self.port = 0
            self.baseURL = baseURL
            return
        }
        let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
        let hostInURL = core.listener.isIPv6 ? "[\(host)]" : host
        guard let baseURL = URL(string: "http://\(hostInURL):\(core.listener.port)") else {
            core.shutdown()
            throw .invalidHost(configuration.host)
        }
        self.core = core
        self.host = host
        self.port = core.listener.port
        self.baseURL = baseURL
    }

    deinit {
        core.shutdown()
    }

    /// The characters RFC 3986 leaves unencoded everywhere.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The URL of `path` on this server; `path` may include a query, and a missing leading `/` is added.
    ///
    /// `server.url("/users?page=2")` is `http://127.0.0.1:PORT/users?page=2`. Characters not allowed in a URL
    /// are percent-encoded.
    public func url(_ path: String) -> URL {
        let relative = path.hasPrefix("/") ? path : "/" + path
        let base = baseURL.absoluteString
        if let url = URL(string: base + relative) { return url }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "?&=")
        let encoded = relative.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return URL(string: base + encoded) ?? baseURL
    }

    /// Adds `response` to the end of the queue; each request without a dispatcher takes the first queued response.
    public func enqueue(_ response: MockResponse) {
        core.enqueue([response])
    }

    /// Adds `responses` to the end of the queue, in order.
    package func enqueue(contentsOf responses: [MockResponse]) {
        core.enqueue(responses)
    }

    /// How many enqueued responses have not been used yet.
    package var queuedResponseCount: Int {
        core.queuedResponseCount
    }

    /// Answers every request with `dispatch(request)` instead of the queue; `nil` goes back to the queue.
    ///
    /// The dispatcher runs on the connection's thread after the request is recorded, possibly concurrently for
    /// different connections; it must be quick and must not call ``shutdown()``.
    public func setDispatcher(_ dispatch: (@Sendable (RecordedRequest) -> MockResponse)?) {
        core.setDispatcher(dispatch)
    }

    /// Replaces the response sent when the queue is empty and no dispatcher is set.
    public func setDefaultResponse(_ response: MockResponse) {
        core.setDefaultResponse(response)
    }

    /// Returns the oldest request not taken yet, waiting up to `timeout` for one to arrive.
    ///
    /// The wait suspends the task (no thread is blocked) and ends early when the task is cancelled. A request is
    /// returned only once its response has been taken off the queue, so a request the client sends after this
    /// returns — on any connection — is answered with the next queued response.
    /// - Throws: ``MockWebServerError/timeout(_:)`` when no request arrives in time,
    ///   ``MockWebServerError/serverShutDown`` when the server is shut down with no request left, or
    ///   `CancellationError`.
    public func takeRequest(timeout: Duration = .seconds(5)) async throws -> RecordedRequest {
        try await core.inbox.take(timeout: timeout)
    }

    /// How many requests the server has received (and recorded), whether taken or not.
    public var requestCount: Int {
        core.inbox.receivedCount
    }

    /// How many response body bytes the server has handed to its sockets so far, over every response and
    /// connection, streamed (``MockResponse/streaming(_:end:)``) or not. Chunk framing and headers are not counted.
    ///
    /// The server writes a body only as fast as the socket accepts it, holding at most a small buffer of it
    /// besides the response: a client that stops reading stops this count once the kernel's socket buffers are
    /// full, and a test can use it to prove that a slow consumer holds the producer back. A byte is counted once
    /// the kernel has accepted it, which is not proof that the client has read it. Safe to read from any thread.
    public var responseBodyBytesWritten: Int {
        core.responseBodyBytesWritten.withLock { $0 }
    }

    /// How many connections the client closed (or reset) while the server held a ``SocketPolicy/noResponse``
    /// answer back (over HTTP/2, also each stream the client reset): how a test sees that a cancelled call really
    /// hung up. Safe to read from any thread.
    package var clientClosedConnectionCount: Int {
        core.clientClosedConnections.withLock { $0 }
    }

    /// Whether ``shutdown()`` has been called.
    package var isShutDown: Bool {
        core.isShutDown
    }

    /// Stops the server: closes the listening socket and every connection (idle or not), joins every thread the
    /// server started, and fails pending ``takeRequest(timeout:)`` calls. Requests already recorded can still be
    /// taken. Returns promptly; calling it again does nothing.
    public func shutdown() {
        core.shutdown()
    }

    /// The number of descriptors the server has open (0 after ``shutdown()``). For the server's own tests.
    package var openDescriptorCount: Int {
        core.descriptors.openCount
    }

    /// What every descriptor the server ever opened referred to. For the server's own leak tests.
    package var descriptorIdentities: [DescriptorIdentity] {
        core.descriptors.identities
    }

    /// The number of threads the server has running (0 after ``shutdown()``). For the server's own tests.
    package var runningThreadCount: Int {
        core.runningThreadCount
    }

    /// How many connections the server has accepted, whether they carried a request or not (the
    /// ``RecordedRequest/connectionIndex`` of the next one). For this package's transport tests.
    package var acceptedConnectionCount: Int {
        core.acceptedConnectionCount
    }
}
