import BothamNetworking
import Foundation

/// Helpers shared by the streaming tests (namespaced so they cannot clash with other test files).
enum StreamingTestSupport {
    /// A thread-safe flag.
    final class Flag: Sendable {
        private let storage = Lock(false)

        func set() {
            storage.withLock { $0 = true }
        }

        var isSet: Bool { storage.withLock { $0 } }
    }

    /// Every element of `sequence` until it ends, and the error that ended it, if any.
    static func readAll<S: AsyncSequence>(_ sequence: S) async -> (elements: [S.Element], error: APIClientError?) {
        var elements: [S.Element] = []
        do {
            for try await element in sequence { elements.append(element) }
            return (elements, nil)
        } catch let error as APIClientError {
            return (elements, error)
        } catch {
            return (elements, .httpClientError(underlying: error))
        }
    }

    /// Whether `error` is a ``APIClientError/networkError(_:)`` of `kind`.
    static func isNetworkError(_ error: APIClientError?, kind: APIClientError.NetworkFailure.Kind) -> Bool {
        guard case .networkError(let failure) = error else { return false }
        return failure.kind == kind
    }

    /// Whether `error` is a ``APIClientError/parsingError(body:underlying:)``.
    static func isParsingError(_ error: APIClientError?) -> Bool {
        guard case .parsingError = error else { return false }
        return true
    }

    /// Whether `error` is ``APIClientError/cancelled``.
    static func isCancelled(_ error: APIClientError?) -> Bool {
        guard case .cancelled = error else { return false }
        return true
    }

    /// Whether `error` is ``APIClientError/timeout``.
    static func isTimeout(_ error: APIClientError?) -> Bool {
        guard case .timeout = error else { return false }
        return true
    }

    /// UTF-8 bytes.
    static func data(_ text: String) -> Data {
        Data(text.utf8)
    }
}
