import BothamNetworking
import Foundation

/// Opens WebSockets on `NativeHTTPClient` but misreports them: text arrives uppercased, `ping()` fails at once, and
/// every socket says it ended with 1000, whatever closed it.
struct MisreportsWebSockets: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let response = try await inner.send(request)
        guard let handle = response.upgrade as? WebSocketChannelHandle else { return response }
        return response.withUpgrade(WebSocketChannelHandle(MisreportingChannel(handle)))
    }
}

/// The channel of ``MisreportsWebSockets``: the native channel (which `handle` keeps open) with its flaws.
private final class MisreportingChannel: WebSocketChannel {
    private let handle: WebSocketChannelHandle

    init(_ handle: WebSocketChannelHandle) {
        self.handle = handle
    }

    private var inner: any WebSocketChannel { handle.channel }

    var subprotocol: String? { inner.subprotocol }

    func send(_ message: WebSocket.Message) async throws(APIClientError) {
        try await inner.send(message)
    }

    func receive() async throws(APIClientError) -> WebSocket.Message? {
        let message = try await inner.receive()
        if case .text(let text) = message { return .text(text.uppercased()) }
        return message
    }

    func ping() async throws(APIClientError) {
        throw .invalidRequest(reason: "pings are not supported")
    }

    func close(code: WebSocket.CloseCode, reason: String) async {
        await inner.close(code: code, reason: reason)
    }

    var closure: WebSocket.Closure? {
        inner.closure.map { WebSocket.Closure(code: .normalClosure, reason: $0.reason) }
    }

    func abort() {
        inner.abort()
    }
}
