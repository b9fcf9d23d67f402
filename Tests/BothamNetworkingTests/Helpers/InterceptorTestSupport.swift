import BothamNetworking
import BothamTestSupport
import Foundation

/// A random source answering the given values in order (then repeating the last).
func sequence(_ values: [Double]) -> RetryPolicy.Random {
    let index = Lock(0)
    return RetryPolicy.Random {
        index.withLock { index in
            defer { index += 1 }
            return values[min(index, values.count - 1)]
        }
    }
}

/// Suspends waiters until `count` arrivals have happened, or until the waiting task is cancelled; never sleeps.
actor ArrivalGate {
    private let count: Int
    private var arrived = 0
    private let reached = Latch()

    init(count: Int) {
        self.count = count
    }

    func arrive() {
        arrived += 1
        if arrived >= count { reached.open() }
    }

    func wait() async {
        await reached.wait()
    }
}

/// An onion interceptor that reports each answered attempt to a gate.
struct ArrivalInterceptor: HTTPInterceptor {
    let gate: ArrivalGate

    func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
        -> HTTPResponse
    {
        let response = try await next(request)
        await gate.arrive()
        return response
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The status code of the response, or of the HTTP error.
    var statusCode: Int? {
        switch self {
        case .success(let response): return response.statusCode
        case .failure(let error): return error.statusCode
        }
    }

    /// The error, if any.
    var error: APIClientError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
