import BothamNetworking
import Foundation

extension HTTPBodyStream {
    /// The bytes of the stream until it ended, and the error it ended with (`nil` when it ended normally).
    public func readToEnd() async -> (Data, APIClientError?) {
        var received = Data()
        var iterator = makeAsyncIterator()
        do throws(APIClientError) {
            while let chunk = try await iterator.next() { received.append(chunk) }
            return (received, nil)
        } catch {
            return (received, error)
        }
    }
}
