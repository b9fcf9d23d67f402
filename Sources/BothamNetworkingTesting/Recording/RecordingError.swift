import BothamNetworking
import Foundation

/// Why ``RecordingHTTPClient`` could not answer or record; it reaches the caller as
/// `APIClientError.httpClientError(underlying:)`.
public enum RecordingError: Error, Sendable, CustomStringConvertible {
    /// Replaying: no recorded exchange matches the request. The value names the request and shows the difference
    /// from the closest recorded one.
    case noMatch(ReplayMismatch)
    /// Replaying: the recording file does not exist.
    case missingRecording(URL)
    /// The recording file exists but is not a HAR 1.x document.
    case unreadableRecording(URL, reason: String)
    /// Replaying: the matching exchange's response body was left out of the recording (too large, or the body was
    /// not read to its end while recording).
    case bodyNotRecorded(request: String, reason: String)
    /// Recording: the file could not be written.
    case writeFailed(reason: String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .noMatch(let mismatch):
            return mismatch.description
        case .missingRecording(let url):
            return
                "RecordingHTTPClient: no recording at \(url.path); record it first (mode .record or .recordIfMissing)"
        case .unreadableRecording(let url, let reason):
            return "RecordingHTTPClient: cannot read the recording at \(url.path): \(reason)"
        case .bodyNotRecorded(let request, let reason):
            return "RecordingHTTPClient: the response body of \(request) was not recorded (\(reason))"
        case .writeFailed(let reason):
            return "RecordingHTTPClient: cannot write the recording: \(reason)"
        }
    }
}

/// A request that no recorded exchange matches, with the difference from the closest one.
public struct ReplayMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request as it would be recorded (redacted): `GET https://…`.
    package let request: String
    /// How many exchanges the recording holds.
    package let recordedCount: Int
    /// The closest recorded request (`GET https://…`), or `nil` when the recording is empty.
    package let closest: String?
    /// The lines that differ: `- ` what the closest recording has, `+ ` what was sent, for every compared part
    /// (method, scheme and host, path, each query item, each compared header, the body).
    public let differences: [String]

    /// A readable diff:
    ///
    /// ```text
    /// RecordingHTTPClient: no recorded exchange matches GET https://api.example.com/users?page=3
    /// closest of 4 recorded: GET https://api.example.com/users?page=2
    /// - query page=2
    /// + query page=3
    /// ```
    public var description: String {
        var lines = ["RecordingHTTPClient: no recorded exchange matches \(request)"]
        if let closest {
            lines.append("closest of \(recordedCount) recorded: \(closest)")
            lines += differences
        } else {
            lines.append("the recording holds no exchanges")
        }
        return lines.joined(separator: "\n")
    }
}
