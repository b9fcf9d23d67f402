import BothamNetworking
import Foundation
import PlaygroundSupport

/// Uploads and downloads: a file streamed up, a body streamed down to a file, progress, and no partial files.
public enum UploadsAndDownloads: PlaygroundPage {
    /// The page's name.
    public static let name = "UploadsAndDownloads"
    /// What the page shows.
    public static let summary = "upload from a file, download to a file, progress, destinations that never leak"

    /// Runs the page.
    public static func run(_ context: PlaygroundContext) async throws {
        let apiClient = context.client(context.httpbinURL)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("botham-playground-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Download: the body goes straight to disk, whatever its size (httpbin's /bytes stops at 100 KiB).
        let destination = folder.appendingPathComponent("downloads/random.bin")
        let downloaded = try await apiClient.download(
            "/bytes/102400",
            to: .file(destination, options: [.createIntermediateDirectories])
        ) { progress in
            if progress.isFinished { print("  download finished: \(progress)") }
        }.get()
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
        try context.check(downloaded.bodyFileURL == destination && size == 102_400, "the body is in the file")
        try context.check(downloaded.body.isEmpty, "and not in memory")

        // The destination exists now: without .replaceExistingFile the call fails before anything is sent.
        let again = await apiClient.download("/bytes/10", to: .file(destination))
        guard case .failure(.downloadDestinationError(let error)) = again, error.kind == .fileExists else {
            throw PlaygroundFailure("an existing file must not be replaced silently")
        }
        try context.check(true, "an existing file is kept: \(error)")

        // Upload: the file is read as it is sent, never loaded whole.
        let uploaded = try await apiClient.upload(
            "/post",
            fromFile: destination,
            contentType: "application/octet-stream"
        ) { progress in
            if progress.direction == .upload, progress.isFinished { print("  upload finished: \(progress)") }
        }.get()
        try context.check(uploaded.statusCode == 200, "the file was uploaded")

        // Progress as an AsyncStream.
        let call = apiClient.startTransfer(
            apiClient.request(.get, "/bytes/65536").withResponseDestination(.directory(folder))
        )
        var reports = 0
        for await _ in call.progress { reports += 1 }
        let named = try await call.result.get()
        try context.check(
            reports > 0 && named.bodyFileURL?.lastPathComponent == "65536",
            "a folder destination uses the suggested name (\(named.suggestedFilename)) after \(reports) reports"
        )
    }
}
