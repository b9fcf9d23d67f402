import BothamNetworking
import Foundation

/// How ``RecordingHTTPClient`` redacts, matches and times what it records and replays.
public struct RecordingOptions: Sendable {
    package var redactor: Redactor
    package var matching: ReplayMatching
    package var timing: ReplayTiming
    package var maximumBodySize: Int
    package var replaysProgress: Bool

    /// Options; every parameter has its default.
    ///
    /// - Parameters:
    ///   - redactor: What is hidden before an exchange is written: header values, query items, and the JSON and
    ///     form body fields it names, in requests and responses alike. Default `Redactor/default` (credential
    ///     headers, `access_token` and the other default query items, `password` and OAuth token fields). Name
    ///     your own secrets too: `Redactor(headerNames: ["X-Customer-Id"], queryParameterNames: ["session"],
    ///     bodyFieldNames: ["pin"])`.
    ///   - matching: Which parts of a request must match a recorded one. Default ``ReplayMatching/methodAndURL``.
    ///   - timing: Whether a replayed answer takes the time the recorded one took. Default
    ///     ``ReplayTiming/immediate``.
    ///   - maximumBodySize: The largest request or response body written to the recording, in bytes (default
    ///     16 MiB); a larger one is left out with a comment saying so, and replaying its response fails with
    ///     ``RecordingError/bodyNotRecorded(request:reason:)``.
    ///   - replaysProgress: Whether a replayed answer reports upload and download progress to the call's
    ///     `TransferProgress.Reporter` (the `progress:` closure of `BothamAPIClient`'s `send`, `upload` and
    ///     `download`), as `StubHTTPClient` does: each direction in four equal steps ending at the total (the
    ///     upload only when the request has a body of known size). With ``ReplayTiming/recorded(scale:)`` the
    ///     steps are paced by the recorded timings: the upload across the entry's scaled `send`, the download
    ///     across its scaled `receive`, the rest of its `time` in between; otherwise they are reported at once.
    ///     Default `false`.
    public init(
        redactor: Redactor = .default,
        matching: ReplayMatching = .methodAndURL,
        timing: ReplayTiming = .immediate,
        maximumBodySize: Int = 16 * 1024 * 1024,
        replaysProgress: Bool = false
    ) {
        self.redactor = redactor
        self.matching = matching
        self.timing = timing
        self.maximumBodySize = maximumBodySize
        self.replaysProgress = replaysProgress
    }
}

/// Whether replayed answers wait as long as the recorded ones took.
public enum ReplayTiming: Sendable, Hashable {
    /// Answer at once (the default).
    case immediate
    /// Wait the recorded entry's `time` multiplied by `scale` (`1` as recorded, `0.1` ten times faster) before
    /// answering; a wait longer than the request's `timeout` ends with `APIClientError.timeout` after the timeout.
    /// The wait runs on the call's clock (`HTTPCallContext.clock`: real time, or a ``VirtualClock`` in a test).
    case recorded(scale: Double)
}
