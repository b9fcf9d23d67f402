import BothamNetworking
import Dispatch

/// Whether `work` finishes within `limit` (scaled by ``TestTimeScale``), waited for without blocking the caller: a
/// deadlock in `work` fails the test that asked instead of hanging the run. A test's `.timeLimit` cannot end a thread
/// blocked on a mutex; here such a thread is left behind and the test goes on. `work` runs on a Dispatch thread, so a
/// blocked one holds none of the few cooperative threads. Shared by the test targets; not part of any product.
public func finishesWithin(_ limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
    let answered = Lock(false)
    return await withCheckedContinuation { continuation in
        let answer: @Sendable (Bool) -> Void = { finished in
            let first = answered.withLock { answered in
                defer { answered = true }
                return !answered
            }
            if first { continuation.resume(returning: finished) }
        }
        DispatchQueue.global().async {
            let done = DispatchSemaphore(value: 0)
            Task {
                await work()
                done.signal()
            }
            done.wait()
            answer(true)
        }
        let seconds = TestTimeScale.scaled(seconds: Double(limit.components.seconds))
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { answer(false) }
    }
}
