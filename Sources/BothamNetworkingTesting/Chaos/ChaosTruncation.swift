import BothamNetworking
import Foundation

/// ``ChaosInterceptor/Fault/truncateBody``: the connection lost half-way through the body, as a transport reports it.
enum ChaosTruncation {
    /// What the caller sees when the body is cut: the error a transport gives a connection that closed early.
    static let failure = APIClientError.networkError(
        APIClientError.NetworkFailure(kind: .connectionLost, underlying: ChaosInterceptor.Fault.truncateBody))

    /// `response` with its body cut: a body in memory or in a file fails at once; a streamed body is passed on up to
    /// half of its `Content-Length` (half of its first chunk when it declares none) and then fails. A response
    /// without a body is returned as it is.
    static func truncating(_ response: HTTPResponse) throws(APIClientError) -> HTTPResponse {
        let declared = response.headers[.contentLength].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let stream = response.bodyStream {
            if declared == 0 { return response }
            return HTTPResponse(
                statusCode: response.statusCode, headers: response.headers, request: response.request,
                url: response.url, bodyStream: truncating(stream, after: declared.map { $0 / 2 }))
        }
        if let file = response.bodyFileURL {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            if size == 0, response.body.isEmpty { return response }
            throw failure
        }
        if response.body.isEmpty { return response }
        throw failure
    }

    /// A stream of `stream`'s first `limit` bytes (the first half of its first chunk when `nil`) that then ends
    /// with `failure`, and ends `stream` (its connection is closed, as a dropped one would be). The reader going
    /// away ends `stream` too.
    private static func truncating(_ stream: HTTPBodyStream, after limit: Int?) -> HTTPBodyStream {
        let (truncated, continuation) = HTTPBodyStream.makeStream(
            bufferLimit: stream.bufferLimit, onCancel: { stream.cancel() })
        Task {
            var iterator = stream.makeAsyncIterator()
            var remaining = limit
            while remaining != 0 {
                let next: Data?
                do throws(APIClientError) {
                    next = try await iterator.next()
                } catch {
                    return continuation.finish(throwing: error)
                }
                guard let chunk = next else { break }  // ended before the cut: still cut short
                let allowed = remaining ?? chunk.count / 2
                let piece = chunk.prefix(allowed)
                if !piece.isEmpty, await !continuation.send(Data(piece)) { return stream.cancel() }
                remaining = allowed - piece.count
            }
            stream.cancel()
            continuation.finish(throwing: failure)
        }
        return truncated
    }
}
