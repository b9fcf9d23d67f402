import Foundation

/// Where a response body goes: into ``HTTPResponse/body`` (the default) or into a file.
///
/// ```swift
/// let request = apiClient.request(.get, "/exports/2024.csv")
///     .withResponseDestination(.file(downloads.appendingPathComponent("2024.csv"), options: [.replaceExistingFile]))
/// let response = try await apiClient.response(for: request)
/// print(response.bodyFileURL?.path ?? "")  // the file; response.body is empty
/// ```
///
/// A file destination goes through the whole pipeline (interceptors, retries, validation). Each attempt streams the
/// body into a temporary file beside the destination (so memory stays bounded whatever the size), and only the
/// response the call ends with is moved into place. A failed, cancelled, timed-out or rejected call leaves no file
/// behind (unless ``ResponseBodyDestination/Options/keepFileWhenRejected`` keeps the file of a rejected response), and an existing
/// file is only replaced once the new one is complete.
public enum ResponseBodyDestination: Sendable, Hashable {
    /// The body is read into ``HTTPResponse/body``.
    case memory
    /// The body is handed over as it arrives, as ``HTTPResponse/bodyStream`` (see ``BothamAPIClient/stream(_:callTimeout:)``).
    case stream
    /// The body is written to the file at `url`.
    case file(URL, options: ResponseBodyDestination.Options = [])
    /// The body is written into `directory`, under the name the response suggests
    /// (``HTTPResponse/suggestedFilename``: its `Content-Disposition`, else the last component of its URL, made
    /// safe so that it can never leave `directory`).
    case directory(URL, options: ResponseBodyDestination.Options = [])

    /// The options of a file or directory destination (empty for ``memory``).
    package var options: ResponseBodyDestination.Options {
        switch self {
        case .memory, .stream: return []
        case .file(_, let options), .directory(_, let options): return options
        }
    }

    /// The file a transport writes the body to: the URL of a ``file(_:options:)`` destination, `nil` otherwise (the
    /// client turns a ``directory(_:options:)`` destination into a file one before a transport sees the request).
    public var fileURL: URL? {
        if case .file(let url, _) = self { return url }
        return nil
    }

    /// The folder the body file ends up in, or `nil` for ``memory``.
    var folder: URL? {
        switch self {
        case .memory, .stream: return nil
        case .file(let url, _): return url.deletingLastPathComponent()
        case .directory(let url, _): return url
        }
    }
}
