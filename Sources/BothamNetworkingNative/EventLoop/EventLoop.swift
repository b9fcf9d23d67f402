import BothamNetworking
import CBothamNativeShims
import Foundation

/// Readiness callbacks for a registered descriptor, called on the loop thread.
protocol EventLoopHandler: AnyObject {
    /// The descriptor is readable, writable, or failed (both flags set).
    func handle(readable: Bool, writable: Bool)
}

/// Something that runs once the loop's current iteration is done (``EventLoop/atIterationEnd(_:)``). A handler
/// object, not a closure: asking costs no allocation, so it can be asked once per iteration on the per-request path.
protocol IterationEndHandler: AnyObject {
    /// The iteration's events, timers and submitted work are done.
    func iterationEnded()
}

/// One event-loop thread: waits on non-blocking sockets with a ``Poller``, runs timers and submitted work.
///
/// Submitted work and the wake-up flag are guarded by a ``Lock``; descriptor handlers and timers are confined to
/// the loop thread (only touched by work running on it). Nothing busy-waits: with no work and no due timer the
/// thread sleeps in the poller.
///
/// `@unchecked Sendable`: `pending` is a `Lock`; `poller.wake()` is thread-safe; `handlers`, `timers` and
/// the iteration-end handlers are only read or written by code running on the loop thread (callers reach them through ``execute(_:)``).
final class EventLoop: @unchecked Sendable {
    /// Something to run on the loop thread: a closure, or a job of a task that prefers this loop as its executor.
    private enum Work {
        case closure(@Sendable () -> Void)
        case job(UnownedJob)
    }

    private struct Pending {
        var work: [Work] = []
        var sleeping = false
    }

    private let poller: any Poller
    private let pending = Lock(Pending())
    private var handlers: [Int32: any EventLoopHandler] = [:]
    private var timers = TimerHeap()
    /// What runs once the current iteration's events, timers and work are done (``atIterationEnd(_:)``).
    private var iterationEnd: [any IterationEndHandler] = []
    private var iterationEndRunning: [any IterationEndHandler] = []

    /// Released by the loop right before it resumes a caller's continuation and taken by the caller right after
    /// (`Exchange.receivedOutcome()`): an explicit happens-before edge for what the loop built for the caller (a
    /// streamed body created on the loop thread). ThreadSanitizer saw none through the continuation's resumption
    /// alone when the caller ran on the global executor, and reported the caller's first read of a new
    /// `HTTPBodyStream`. One per loop, made once: nothing is allocated per exchange, and it is held for no work. An
    /// `NSLock`, not our `Lock`: TSan's exclusivity tracking flags the `ManagedBuffer` header access our `Lock` makes
    /// before it takes its mutex when the first taker is another thread than the creator.
    let handoff = NSLock()

    /// A 64 KiB read buffer for code running on the loop thread (never deallocated: the loop lives as long as the
    /// process). Loop thread only; its contents are only valid until the next read.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Starts a loop on a new thread named `name`; `nil` when the poller cannot be created.
    init?(name: String) {
        guard let poller = PollerFactory.make() else { return nil }
        self.poller = poller
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Whether the calling thread is this loop's thread.
    var isCurrent: Bool {
        botham_current_loop() == UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `work` on the loop thread, in submission order.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    /// Runs `job` on the loop thread, in submission order with ``execute(_:)``.
    func enqueue(_ job: UnownedJob) {
        submit(.job(job))
    }

    private func submit(_ work: Work) {
        let mustWake = pending.withLock { state -> Bool in
            state.work.append(work)
            if state.sleeping {
                state.sleeping = false
                return true
            }
            return false
        }
        if mustWake { poller.wake() }
    }

    // MARK: Loop-thread API

    /// Starts delivering readiness of `fd` to `handler`. Loop thread only.
    func register(_ fd: Int32, interest: PollInterest, handler: any EventLoopHandler) -> Bool {
        guard poller.register(fd, interest: interest) else { return false }
        handlers[fd] = handler
        return true
    }

    /// Changes what `fd` waits for. Loop thread only.
    func modify(_ fd: Int32, interest: PollInterest) {
        poller.modify(fd, interest: interest)
    }

    /// Stops delivering readiness of `fd`; call before closing it. Loop thread only.
    func unregister(_ fd: Int32) {
        poller.unregister(fd)
        handlers[fd] = nil
    }

    /// Calls `handler` once the current iteration has handled its events, timers and submitted work: writes made by
    /// many of them go out together (an HTTP/2 connection coalesces its frames into one `send`). Loop thread only.
    func atIterationEnd(_ handler: any IterationEndHandler) {
        iterationEnd.append(handler)
    }

    /// Runs `action` on the loop thread at `deadline` (monotonic nanoseconds) unless cancelled. Loop thread only.
    func scheduleTimer(at deadline: UInt64, _ action: @escaping () -> Void) -> UInt64 {
        timers.schedule(at: deadline, action)
    }

    /// Cancels a timer. Loop thread only.
    func cancelTimer(_ id: UInt64) {
        timers.cancel(id)
    }

    // MARK: The loop

    /// Runs a job of a task that prefers this loop. Jobs only arrive through the `TaskExecutor` conformance, which
    /// exists from macOS 15 / iOS 18 on, so the other branch is never taken.
    private func run(_ job: UnownedJob) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func run() {
        botham_set_current_loop(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
        while true {
            let timeout = waitTimeout()
            let events = poller.wait(timeoutMillis: timeout)
            pending.withLock { $0.sleeping = false }
            for event in events {
                handlers[event.fd]?.handle(readable: event.readable, writable: event.writable)
            }
            for action in timers.takeDue(now: MonotonicClock.now()) { action() }
            let work = pending.withLock { state -> [Work] in
                let work = state.work
                state.work.removeAll(keepingCapacity: true)
                return work
            }
            for item in work {
                switch item {
                case .closure(let closure): closure()
                case .job(let job): run(job)
                }
            }
            while !iterationEnd.isEmpty {
                // Swapped with a spare, not copied: both arrays keep their storage, nothing is allocated.
                swap(&iterationEnd, &iterationEndRunning)
                for handler in iterationEndRunning { handler.iterationEnded() }
                iterationEndRunning.removeAll(keepingCapacity: true)
            }
        }
    }

    /// How long the poller may sleep: 0 when work is pending, until the next timer, or forever. Marks the loop as
    /// sleeping so that ``execute(_:)`` wakes it.
    private func waitTimeout() -> Int32 {
        var timeout: Int32 = -1
        if let deadline = timers.nextDeadline() {
            let now = MonotonicClock.now()
            if deadline <= now {
                timeout = 0
            } else {
                let millis = (deadline - now + 999_999) / 1_000_000
                timeout = Int32(clamping: millis)
            }
        }
        return pending.withLock { state -> Int32 in
            if !state.work.isEmpty { return 0 }
            state.sleeping = timeout != 0
            return timeout
        }
    }
}

/// Runs jobs on the loop thread, between its I/O events: a task that prefers this executor
/// (`withTaskExecutorPreference`) and calls ``NativeHTTPClient/send(_:)`` never changes threads — the exchange starts on
/// the loop at once, and the response resumes the task on the loop without waking another thread.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension EventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }
}
