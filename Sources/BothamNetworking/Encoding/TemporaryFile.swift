import Foundation

/// A file the library created for one body (a large multipart body); it is deleted when the last body value that
/// refers to it goes away, so it lives exactly as long as a request (and its retries) may still send it.
final class TemporaryFile: Sendable {
    /// The file's location.
    let url: URL

    init(url: URL) {
        self.url = url
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

extension TemporaryFile: Hashable {
    static func == (lhs: TemporaryFile, rhs: TemporaryFile) -> Bool {
        lhs.url == rhs.url
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(url)
    }
}
