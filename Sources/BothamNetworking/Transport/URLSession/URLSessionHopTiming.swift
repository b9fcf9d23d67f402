/// When the current hop of a ``URLSessionTransfer`` started and when its response head arrived: all of
/// ``HTTPResponse/Timings`` that URLSession's delegate callbacks show (FoundationNetworking never delivers task metrics).
struct URLSessionHopTiming {
    private var startedAt: ContinuousClock.Instant?
    private var headAt: ContinuousClock.Instant?

    /// A hop began: a task was started, or URLSession follows a redirect.
    mutating func hopStarted(at now: ContinuousClock.Instant = .now) {
        startedAt = now
        headAt = nil
    }

    /// A final (non-1xx) response head arrived; the first one counts (later byte-range segments do not).
    mutating func headArrived(at now: ContinuousClock.Instant = .now) {
        if headAt == nil { headAt = now }
    }

    /// ``HTTPResponse/Timings/waiting`` from the start of the hop to the head and, when the body has ended (`bodyEnded`),
    /// ``HTTPResponse/Timings/bodyReceived`` from the head to then; `nil` before a head.
    func timings(bodyEnded: ContinuousClock.Instant?) -> HTTPResponse.Timings? {
        guard let startedAt, let headAt else { return nil }
        let head = headAt - startedAt
        var timings = HTTPResponse.Timings(waiting: HTTPResponse.Timings.Phase(start: .zero, end: head))
        if let bodyEnded { timings.bodyReceived = HTTPResponse.Timings.Phase(start: head, end: bodyEnded - startedAt) }
        return timings
    }
}
