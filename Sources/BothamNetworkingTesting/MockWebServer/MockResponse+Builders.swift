import BothamNetworking
import Foundation

extension MockResponse {
    /// Returns a copy with `statusCode` and, optionally, a custom reason phrase.
    public func withStatus(_ statusCode: Int, reasonPhrase: String? = nil) -> MockResponse {
        var copy = self
        copy.statusCode = statusCode
        copy.reasonPhrase = reasonPhrase
        return copy
    }

    /// Returns a copy with one more header field (existing fields with the same name are kept).
    public func withHeader(_ name: HTTPFieldName, _ value: String) -> MockResponse {
        var copy = self
        copy.headers.add(name, value)
        return copy
    }

    /// Returns a copy where `name` (case-insensitive) has the single value `value`, as the last field.
    public func settingHeader(_ name: HTTPFieldName, _ value: String) -> MockResponse {
        var copy = self
        copy.headers.remove(name)
        copy.headers.add(name, value)
        return copy
    }

    /// Returns a copy with `body` as the body (replacing a streamed body set with ``streaming(_:end:)``).
    public func withBody(_ body: Data) -> MockResponse {
        var copy = self
        copy.body = body
        copy.streamedBody = nil
        return copy
    }

    /// Returns a copy with the UTF-8 bytes of `body` as the body.
    public func withBody(_ body: String) -> MockResponse {
        withBody(Data(body.utf8))
    }

    /// Returns a copy with `json` (already encoded JSON text) as the body and `Content-Type: application/json`.
    public func withJSONBody(_ json: String) -> MockResponse {
        withBody(json).settingHeader("Content-Type", "application/json")
    }

    /// Returns a copy with `value` encoded by `encoder` as the body and `Content-Type: application/json`.
    public func withJSONBody(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws -> MockResponse {
        withBody(try encoder.encode(value)).settingHeader("Content-Type", "application/json")
    }

    /// Returns a copy sent with `Transfer-Encoding: chunked`, in chunks of `chunkSize` bytes (at least 1).
    public func chunked(chunkSize: Int = 1024) -> MockResponse {
        var copy = self
        copy.chunkSize = max(1, chunkSize)
        return copy
    }

    /// Returns a copy whose status line and headers are sent only after `delay`.
    public func withHeadersDelay(_ delay: Duration) -> MockResponse {
        var copy = self
        copy.headersDelay = delay
        return copy
    }

    /// Returns a copy whose body is sent `bytes` bytes at a time with a pause of `period` between slices.
    public func throttled(bytes: Int, per period: Duration) -> MockResponse {
        var copy = self
        copy.throttle = Throttle(bytesPerPeriod: bytes, period: period)
        return copy
    }

    /// Returns a copy delivered with `policy` (a normal response or a deliberate fault).
    public func withSocketPolicy(_ policy: SocketPolicy) -> MockResponse {
        var copy = self
        copy.socketPolicy = policy
        return copy
    }

    /// Returns a copy that sends `Connection: close` and closes the connection after the response.
    public func closingConnection() -> MockResponse {
        var copy = self
        copy.closesConnectionAfterResponse = true
        return copy
    }

    /// This response, preceded by an interim `1xx` response with `statusCode` (each call adds one).
    public func withInterimResponse(_ statusCode: Int) -> MockResponse {
        var copy = self
        copy.interimStatusCodes.append(statusCode)
        return copy
    }
}
