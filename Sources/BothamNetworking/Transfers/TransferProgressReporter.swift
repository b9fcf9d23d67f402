extension TransferProgress {
    /// Receives the progress of the calls made while it is bound, and hands it on filtered: per direction, never
    /// decreasing and without repeats.
    ///
    /// The client binds one for a call (``BothamAPIClient/send(_:progress:)``, the `download` and `upload` methods);
    /// transports read ``current`` when they start a request and report what they see with
    /// ``report(_:completed:total:)``. A transport of your own reports progress the same way:
    ///
    /// ```swift
    /// let reporter = TransferProgress.Reporter.current
    /// reporter?.report(.download, completed: received, total: expected)
    /// ```
    ///
    /// Across retries the reported value holds until a new attempt passes it, so progress never goes backwards.
    public final class Reporter: Sendable {
        private struct Last {
            var upload: TransferProgress?
            var download: TransferProgress?
        }

        /// The reporter of the call the current task is running, or `nil` when nobody watches its progress.
        @TaskLocal public static var current: TransferProgress.Reporter?

        private let handler: @Sendable (TransferProgress) -> Void
        private let last = Lock(Last())

        /// Creates a reporter that calls `handler` for every report that moves forward. `handler` runs on the thread
        /// that reports (for ``URLSessionHTTPClient``, the session's delegate queue): keep it short.
        package init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
            self.handler = handler
        }

        /// Hands `progress` on unless it repeats or goes back on the last report of its direction.
        package func report(_ progress: TransferProgress) {
            // The handler runs under the lock so that reports reach it in the order they were accepted.
            last.withLock { last in
                let previous = progress.direction == .upload ? last.upload : last.download
                if let previous {
                    guard progress.completedBytes >= previous.completedBytes, progress != previous else { return }
                    // A total that was known stays known: a retry that does not know it must not make it unknown.
                    if progress.totalBytes == nil, previous.totalBytes != nil,
                        progress.completedBytes <= previous.totalBytes ?? 0
                    {
                        return
                    }
                }
                switch progress.direction {
                case .upload: last.upload = progress
                case .download: last.download = progress
                }
                handler(progress)
            }
        }

        /// Reports `completed` of `total` bytes in `direction`.
        public func report(_ direction: TransferProgress.Direction, completed: Int64, total: Int64?) {
            report(TransferProgress(direction: direction, completedBytes: completed, totalBytes: total))
        }
    }
}
