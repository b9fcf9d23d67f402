import Foundation

/// A folder of its own under the temporary directory for one check's files, removed when the check ends.
struct ScratchFiles {
    /// The folder.
    let folder: URL

    /// Creates the folder.
    init() throws(ConformanceFailure) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "botham-conformance-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ConformanceFailure(reason: "could not create the scratch folder \(folder.path): \(error)")
        }
    }

    /// The URL of `name` in the folder.
    func file(_ name: String) -> URL {
        folder.appendingPathComponent(name)
    }

    /// Writes `data` to `name` and returns its URL.
    func write(_ data: Data, to name: String) throws(ConformanceFailure) -> URL {
        let url = file(name)
        do {
            try data.write(to: url)
        } catch {
            throw ConformanceFailure(reason: "could not write \(url.path): \(error)")
        }
        return url
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
