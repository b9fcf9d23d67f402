import BothamNetworking

/// The progress reports of one call, in the order they arrived: what a `progress:` closure of a check collects.
final class ProgressLog: Sendable {
    private let reports = Lock<[TransferProgress]>([])

    /// Adds `progress` (the closure a check hands to `upload` or `download`).
    @Sendable func append(_ progress: TransferProgress) {
        reports.withLock { $0.append(progress) }
    }

    /// Fails unless `direction` was reported and ended at `total` bytes of a known `total`. (That reports only move
    /// forward is `TransferProgress.Reporter`'s guarantee, whatever the transport reports: it drops repeats and
    /// regressions before they reach a `progress:` closure.)
    func expectReported(_ direction: TransferProgress.Direction, endingAt total: Int64) throws(ConformanceFailure) {
        let last = reports.withLock { $0 }.last { $0.direction == direction }
        guard let last else { throw ConformanceFailure(reason: "no \(direction) progress was reported") }
        try expect(
            last.completedBytes == total && last.totalBytes == total,
            "the last \(direction) progress was \(last), not \(total) of \(total) bytes")
    }
}
