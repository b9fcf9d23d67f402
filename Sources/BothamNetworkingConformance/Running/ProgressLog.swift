import BothamNetworking

/// The progress reports of one call, in the order they arrived: what a `progress:` closure of a check collects.
final class ProgressLog: Sendable {
    private let reports = Lock<[TransferProgress]>([])

    /// Adds `progress` (the closure a check hands to `upload` or `download`).
    @Sendable func append(_ progress: TransferProgress) {
        reports.withLock { $0.append(progress) }
    }

    /// Fails unless `direction` was reported, only ever moving forward, and ended at `total` bytes of a known
    /// `total`.
    func expectForward(_ direction: TransferProgress.Direction, endingAt total: Int64) throws(ConformanceFailure) {
        let seen = reports.withLock { $0 }.filter { $0.direction == direction }
        guard let last = seen.last else { throw ConformanceFailure(reason: "no \(direction) progress was reported") }
        for (previous, next) in zip(seen, seen.dropFirst()) where next.completedBytes < previous.completedBytes {
            throw ConformanceFailure(reason: "\(direction) progress went back from \(previous) to \(next)")
        }
        try expect(
            last.completedBytes == total && last.totalBytes == total,
            "the last \(direction) progress was \(last), not \(total) of \(total) bytes")
    }
}
