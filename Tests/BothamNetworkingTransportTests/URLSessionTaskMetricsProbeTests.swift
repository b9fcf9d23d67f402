import BothamNetworking
import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records which delegate callbacks URLSession makes, in order, and hands each completed task to a waiter.
private final class MetricsProbeDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let events = Recorder<String>()
    private let completions: AsyncStream<Void>.Continuation
    let completed: AsyncStream<Void>

    override init() {
        (completed, completions) = AsyncStream<Void>.makeStream()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        events.append("metrics(\(metrics.transactionMetrics.count) transactions)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        events.append("complete")
        completions.yield()
    }
}

/// Pins what `URLSessionHTTPClient`'s timings rest on: whether URLSession delivers its task metrics
/// (`urlSession(_:task:didFinishCollecting:)`) to a session delegate. Apple platforms do, before the task completes;
/// FoundationNetworking on Linux never does, so `HTTPResponse.Timings` from URLSession there holds only what our own
/// delegate callbacks show (the wait and the body).
@Suite("URLSession task metrics probe", .timeLimit(.minutes(1)))
struct URLSessionTaskMetricsProbeTests {
    @Test("Task metrics are delivered on Apple platforms and never by FoundationNetworking")
    func taskMetricsDelivery() async throws {
        let server = try MockWebServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse().withBody("one"))
        server.enqueue(MockResponse().withBody("two"))
        let delegate = MetricsProbeDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        var completions = delegate.completed.makeAsyncIterator()

        // Two tasks one after the other: a metrics callback of the first, were it queued after its completion on
        // the session's serial delegate queue, would have run before the second completes.
        for path in ["/one", "/two"] {
            session.dataTask(with: server.baseURL.appendingPathComponent(path)).resume()
            _ = await completions.next()
        }

        let events = delegate.events.values
        #if canImport(FoundationNetworking)
            #expect(events == ["complete", "complete"])
        #else
            #expect(events.count == 4)
            #expect(events.filter { $0.hasPrefix("metrics") }.count == 2)
            #expect(events.last == "complete")
        #endif
    }
}
