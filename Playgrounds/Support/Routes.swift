import BothamNetworking
import BothamNetworkingTesting
import Foundation

/// Routes a request of the embedded services to its handler.
enum Routes {
    static func answer(_ request: RecordedRequest, state: Lock<ServicesState>) -> MockResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        switch segments.first {
        case "get", "post", "put", "patch", "delete", "anything":
            return Echo.echo(request)
        case "headers":
            return json(["headers": Echo.headers(request)])
        case "status":
            return MockResponse(statusCode: segments.count > 1 ? Int(segments[1]) ?? 400 : 400)
        case "basic-auth":
            return Auth.basic(request, segments: segments)
        case "bearer":
            return Auth.bearer(request, expected: nil)
        case "protected":
            return Auth.bearer(request, expected: state.withLock { $0.currentToken })
        case "token":
            return Auth.refresh(state: state)
        case "flaky":
            return flaky(request, key: segments.count > 1 ? segments[1] : "default", state: state)
        case "repos":
            return Issues.answer(request, state: state)
        case "todos":
            return Todos.answer(request, segments: segments, state: state)
        case "v1" where segments.count == 3 && segments[1] == "chat" && segments[2] == "completions":
            return Streams.chatCompletion(request)
        case "exports":
            return Streams.ndjsonExport(count: Int(request.queryItems.first { $0.name == "count" }?.value ?? "") ?? 5)
        case "cache" where segments.count == 2:
            // httpbin's `/cache/{n}`: `Cache-Control: public, max-age=n`.
            return json(["url": .string(request.path)]).withHeader("Cache-Control", "public, max-age=\(segments[1])")
        case "etag" where segments.count == 2:
            // httpbin's `/etag/{etag}`: 304 when If-None-Match names it.
            if request.headers[.ifNoneMatch] == segments[1] { return MockResponse(statusCode: 304) }
            return json(["etag": .string(segments[1])]).withHeader("ETag", segments[1])
        case "bytes":
            let count = min(max(segments.count > 1 ? Int(segments[1]) ?? 0 : 0, 0), 64 << 20)
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            return MockResponse(headers: [.contentType: "application/octet-stream"], body: bytes)
        default:
            return json(["error": "not found"], status: 404)
        }
    }

    /// Answers 503 (with `Retry-After: 0`) to the first `failures` requests for `key`, then 200.
    static func flaky(_ request: RecordedRequest, key: String, state: Lock<ServicesState>) -> MockResponse {
        let failures = request.queryItems.first { $0.name == "failures" }?.value.flatMap { Int($0) } ?? 2
        let count = state.withLock { state -> Int in
            state.flakyCounts[key, default: 0] += 1
            return state.flakyCounts[key, default: 0]
        }
        if count <= failures {
            return json(["error": "try again", "attempt": .int(count)], status: 503)
                .withHeader("Retry-After", "0")
        }
        return json(["ok": true, "attempt": .int(count)])
    }

    static func json(_ value: JSONValue, status: Int = 200) -> MockResponse {
        MockResponse(
            statusCode: status,
            headers: [.contentType: "application/json"],
            body: (try? value.encoded()) ?? Data()
        )
    }
}
