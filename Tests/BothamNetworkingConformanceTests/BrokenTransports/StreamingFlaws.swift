import BothamNetworking
import BothamNetworkingConformance
import Foundation

/// Streams a body with its first chunk missing, as a transport that reads the first chunk to sniff the content and
/// forgets to hand it on does.
struct LosesFirstChunk: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let response = try await inner.send(request)
        guard let body = response.bodyStream else { return response }
        let (stream, continuation) = HTTPBodyStream.makeStream(onCancel: { body.cancel() })
        Task {
            var first = true
            do throws(APIClientError) {
                for try await chunk in body {
                    if first {
                        first = false
                        continue
                    }
                    guard await continuation.send(chunk) else { return body.cancel() }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return HTTPResponse(
            statusCode: response.statusCode, headers: response.headers, request: response.request, url: response.url,
            bodyStream: stream)
    }
}

/// Sends one call at a time over its one connection, and takes the connection back when a streamed body has been
/// read to its end or failed, but not when the reader leaves early: the connection leak that makes the next call
/// wait forever.
struct LeaksConnectionOnEarlyExit: NativeWrapperOfConfiguration {
    let inner: any HTTPClient
    private let slot = ConnectionSlot()

    init(inner: any HTTPClient) {
        self.inner = inner
    }

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        guard await slot.acquire() else { throw .cancelled }
        let response: HTTPResponse
        do {
            response = try await inner.send(request)
        } catch {
            slot.release()
            throw error
        }
        guard let body = response.bodyStream else {
            slot.release()
            return response
        }
        body.onEnd { [slot] summary in
            if case .cancelled = summary.error { return }  // the mistake: a reader that left keeps the connection
            slot.release()
        }
        return response
    }
}

/// Does not hear the caller's cancellation: the exchange runs in a task of its own (which keeps the caller's
/// task-local values, as `Task {}` does) and the caller waits for it to end.
struct IgnoresCancellation: NativeWrapperOfConfiguration {
    let inner: any HTTPClient

    func send(_ request: HTTPRequest) async throws(APIClientError) -> HTTPResponse {
        let inner = self.inner
        let exchange = Task { () async -> Result<HTTPResponse, APIClientError> in
            do throws(APIClientError) {
                return .success(try await inner.send(request))
            } catch {
                return .failure(error)
            }
        }
        return try await exchange.value.get()
    }
}
