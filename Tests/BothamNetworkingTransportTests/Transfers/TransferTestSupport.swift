import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

/// A fresh folder under the system's temporary folder, removed by ``remove()``.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("botham-transfers-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A URL for `name` inside the folder.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: false)
    }

    /// Every entry of the folder, hidden ones included, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension Recorder where Element == TransferProgress {
    /// The progress reports of `direction`, in order.
    func reports(_ direction: TransferProgress.Direction) -> [TransferProgress] {
        values.filter { $0.direction == direction }
    }

    /// Checks that the reports of `direction` never go back, never repeat, and end at `total`.
    func expectMonotonic(
        _ direction: TransferProgress.Direction,
        endingAt total: Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let seen = reports(direction)
        #expect(!seen.isEmpty, "no \(direction) progress", sourceLocation: sourceLocation)
        for (previous, next) in zip(seen, seen.dropFirst()) {
            #expect(next.completedBytes >= previous.completedBytes, sourceLocation: sourceLocation)
            #expect(next != previous, "repeated report \(next)", sourceLocation: sourceLocation)
        }
        #expect(seen.last?.completedBytes == total, sourceLocation: sourceLocation)
        #expect(seen.last?.totalBytes == total, sourceLocation: sourceLocation)
        #expect(seen.last?.isFinished == true, sourceLocation: sourceLocation)
    }
}

extension Result where Success == HTTPResponse, Failure == APIClientError {
    /// The download destination error kind of this result, or `nil`.
    var destinationErrorKind: ResponseBodyDestination.Failure.Kind? {
        guard case .failure(.downloadDestinationError(let error)) = self else { return nil }
        return error.kind
    }
}

/// Writes `data` to a new file in `folder` and returns its URL.
func writeFile(_ data: Data, named name: String, in folder: ScratchFolder) throws -> URL {
    let url = folder.file(name)
    try data.write(to: url)
    return url
}
