/// How far an upload or a download has come.
///
/// Reports are monotonic per direction (``completedBytes`` never decreases, repeats are dropped) and, when the call
/// succeeds, the last report of a direction has ``completedBytes`` equal to ``totalBytes``.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        /// The request body, to the server.
        case upload
        /// The response body, from the server.
        case download
    }

    /// Which way the bytes go.
    public let direction: Direction
    /// Bytes sent (upload) or received (download, after gzip/deflate/br decoding) so far.
    public let completedBytes: Int64
    /// The total, when known (a `Content-Length`, the size of the body); `nil` for a chunked or compressed body
    /// until it ends.
    public let totalBytes: Int64?

    /// Creates a report.
    package init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = max(0, completedBytes)
        self.totalBytes = totalBytes.map { max(0, $0) }
    }

    /// `completedBytes / totalBytes` between 0 and 1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// Whether every byte has been transferred (the total is known and reached).
    package var isFinished: Bool { totalBytes == completedBytes }
}

extension TransferProgress: CustomStringConvertible {
    /// `download 1024/4096 bytes`.
    public var description: String {
        "\(direction) \(completedBytes)/\(totalBytes.map(String.init) ?? "?") bytes"
    }
}
