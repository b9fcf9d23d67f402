extension MetricsInterceptor {
    /// What one call cost, reported once by ``MetricsInterceptor`` when the call ends.
    public struct Report: Sendable {
        /// How a call ended.
        package enum Outcome: Sendable {
            /// The caller received this status.
            case response(statusCode: Int)
            /// The caller received this error.
            case failure(APIClientError)
        }

        /// The call's id (``HTTPCallContext/callID``).
        package let callID: UInt64
        /// The method of the original request.
        public let method: HTTPMethod
        /// The original request's URL with secrets hidden (see ``Redactor``).
        public let url: String
        /// From the start of the call to its end, all attempts and backoff included.
        public let duration: Duration
        /// How many attempts the call made (1 when it was not retried).
        public let attempts: Int
        /// How the call ended.
        package let outcome: Outcome
        /// Body bytes sent, summed over the attempts that reached the transport.
        package let bytesSent: Int
        /// Body bytes received, summed over the attempts that got a response.
        package let bytesReceived: Int
        /// Where each attempt that reached the transport spent its time, in order: one entry per attempt, the
        /// response's ``HTTPResponse/timings`` (`nil` for an attempt that failed, or whose transport measures
        /// nothing). An attempt that ended before the transport (an invalid request) has no entry.
        public let timings: [HTTPResponse.Timings?]

        /// The final status code: the response's, or the one an HTTP error carries.
        public var statusCode: Int? {
            switch outcome {
            case .response(let statusCode): return statusCode
            case .failure(let error): return error.statusCode
            }
        }

        /// The error the caller received, `nil` for a response. For a ``APIClientError/httpResponseError(_:)`` or
        /// a spent retry budget, ``statusCode`` is the last status.
        public var error: APIClientError? {
            if case .failure(let error) = outcome { return error }
            return nil
        }
    }
}
