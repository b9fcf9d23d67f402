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
