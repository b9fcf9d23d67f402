/// A call started with ``BothamAPIClient/startTransfer(_:)``: its progress as a stream, and its result.
public struct TransferCall: Sendable {
    /// How many reports the stream keeps for a slow reader; older ones are dropped, the newest (and so the last) is
    /// always kept.
    static let bufferedReports = 256

    /// The progress reports of the call, in order; the stream finishes when the call ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Result<HTTPResponse, APIClientError>, Never>

    init(progress: AsyncStream<TransferProgress>, task: Task<Result<HTTPResponse, APIClientError>, Never>) {
        self.progress = progress
        self.task = task
    }

    /// Waits for the call's result. Cancelling the waiting task cancels the call.
    public var result: Result<HTTPResponse, APIClientError> {
        get async {
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Cancels the call: it ends with ``APIClientError/cancelled`` and leaves no partial file.
    public func cancel() {
        task.cancel()
    }
}
