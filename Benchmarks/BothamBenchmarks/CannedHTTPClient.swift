// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking

    /// A transport that answers every request at once with one prebuilt response: the chain case measures only the
    /// client and its interceptors.
    final class CannedHTTPClient: HTTPClient {
        let response: HTTPResponse

        init(response: HTTPResponse) {
            self.response = response
        }

        func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
            response
        }
    }

#endif
