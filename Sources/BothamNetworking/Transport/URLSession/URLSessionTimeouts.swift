/// The time limits of one ``URLSessionTransfer``: the attempt's deadline and the idle timeout of
/// ``TransportLimits``, watched by one task.
///
/// URLSession's own timer is an idle timer in whole seconds on Linux (0.5 s fires at once) with no deadline per
/// call, so the transport keeps its own and sets URLSession's past them (see `URLRequestBuilder`). Activity is what
/// the session delegate sees: a response head, body bytes, upload progress, a redirect, a new hop. While the reader
/// of a streamed body has not made room, the body is not idle: the clock restarts when the wait ends.
///
/// `Sendable`: the mutable state is behind the ``Lock``.
final class URLSessionTimeouts: Sendable {
    private struct State {
        var deadline: ContinuousClock.Instant?
        var lastActivity: ContinuousClock.Instant
        var waitingForReader = false
        var watchdog: Task<Void, Never>?
        var stopped = false
    }

    /// What the watchdog does next.
    private enum Step {
        case sleep(until: ContinuousClock.Instant)
        case fire
        case stop
    }

    private let idleTimeout: Duration?
    private let state: Lock<State>

    /// Limits for an attempt that ends at `deadline` and after `idleTimeout` without activity, counted from now
    /// (`nil`: no such limit).
    init(deadline: ContinuousClock.Instant?, idleTimeout: Duration?) {
        self.idleTimeout = idleTimeout
        state = Lock(State(deadline: deadline, lastActivity: .now))
    }

    /// Whether there is any limit to watch.
    var isLimited: Bool {
        idleTimeout != nil || state.withLock { $0.deadline != nil }
    }

    /// Starts watching; `onTimeout` runs once when a limit runs out, unless ``stop()`` came first.
    func start(onTimeout: @escaping @Sendable () -> Void) {
        guard isLimited else { return }
        let watchdog = Task { [weak self] in
            while let step = self?.nextStep() {
                switch step {
                case .fire:
                    onTimeout()
                    return
                case .stop:
                    return
                case .sleep(let instant):
                    do {
                        try await Task.sleep(until: instant, clock: .continuous)
                    } catch {
                        return
                    }
                }
            }
        }
        let stopped = state.withLock { state in
            if !state.stopped { state.watchdog = watchdog }
            return state.stopped
        }
        if stopped { watchdog.cancel() }
    }

    /// Something moved: the idle clock restarts.
    func noteActivity() {
        guard idleTimeout != nil else { return }
        state.withLock { $0.lastActivity = .now }
    }

    /// A streamed body's head went to the caller: from now on only the idle timeout applies.
    func dropDeadline() {
        state.withLock { $0.deadline = nil }
    }

    /// The reader of a streamed body has no room (`true`) or made room (`false`): waiting for it is not idleness.
    func setWaitingForReader(_ waiting: Bool) {
        state.withLock { state in
            state.waitingForReader = waiting
            state.lastActivity = .now
        }
    }

    /// The attempt ended: no limit fires any more.
    func stop() {
        let watchdog = state.withLock { state in
            state.stopped = true
            defer { state.watchdog = nil }
            return state.watchdog
        }
        watchdog?.cancel()
    }

    private func nextStep() -> Step {
        state.withLock { state in
            guard !state.stopped else { return .stop }
            let now = ContinuousClock.now
            if let deadline = state.deadline, now >= deadline { return .fire }
            var wake = state.deadline
            if let idleTimeout {
                let expiry = state.lastActivity + idleTimeout
                if !state.waitingForReader && now >= expiry { return .fire }
                let idleWake = state.waitingForReader ? now + idleTimeout : expiry
                wake = min(wake ?? idleWake, idleWake)
            }
            return wake.map { .sleep(until: $0) } ?? .stop
        }
    }
}
