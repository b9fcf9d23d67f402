extension MockWebServer {
    /// How a ``MockWebServer`` listens and what it accepts.
    public struct Configuration: Sendable {
        package var host: String
        package var port: Int
        package var defaultResponse: MockResponse
        /// The most bytes the request line and headers (and, separately, chunked trailers) may take; larger
        /// requests are answered with `431 Request Header Fields Too Large`. 64 KiB by default.
        package var maxHeaderBytes = 64 * 1024
        package var maxBodyBytes: Int
        /// The listen backlog.
        package var backlog = 128
        /// Whether a connection that opens with the HTTP/2 connection preface is served over cleartext HTTP/2 (prior
        /// knowledge, RFC 9113 §3.3), as a client with `NativeHTTPClient`'s `http2PriorKnowledge` opens it. `true`
        /// by default; with `false` the server speaks only HTTP/1.1 and answers the preface (a request line of
        /// version `HTTP/2.0`) `505 HTTP Version Not Supported`.
        package var servesHTTP2PriorKnowledge = true
        /// A file path to listen on as a Unix domain socket instead of TCP (`host` and `port` are then unused), or
        /// `nil` (the default) for TCP.
        ///
        /// The server creates the socket file when it starts (a file already at the path makes it fail with
        /// `EADDRINUSE`; the path with its NUL must fit in `sockaddr_un`, 108 bytes on Linux, else `ENAMETOOLONG`)
        /// and removes it at ``MockWebServer/shutdown()``. Its ``MockWebServer/baseURL`` is then
        /// `http+unix://<percent-encoded path>`, the form `NativeHTTPClient` connects to, and its port 0.
        ///
        /// ```swift
        /// var configuration = MockWebServer.Configuration()
        /// configuration.unixSocketPath = directory.appendingPathComponent("server.sock").path
        /// let server = try MockWebServer(configuration: configuration)
        /// ```
        public var unixSocketPath: String?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - host: The address to bind: an IPv4 or IPv6 literal, or `localhost` (meaning `127.0.0.1`). The
        ///     default is `127.0.0.1`; use `::1` for IPv6 loopback.
        ///   - port: The port to bind; 0 (the default) lets the system pick a free one.
        ///   - defaultResponse: The response sent when the queue is empty and no dispatcher is set: by default an
        ///     empty `404 Not Found`.
        ///   - maxBodyBytes: The most bytes a request body may have; larger bodies are answered with
        ///     `413 Content Too Large`. 16 MiB by default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            defaultResponse: MockResponse = MockResponse(statusCode: 404),
            maxBodyBytes: Int = 16 * 1024 * 1024
        ) {
            self.host = host
            self.port = port
            self.defaultResponse = defaultResponse
            self.maxBodyBytes = maxBodyBytes
        }
    }
}
