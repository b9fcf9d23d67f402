import PlaygroundPages
import PlaygroundSupport

// The "UploadsAndDownloads" page on its own: `swift run UploadsAndDownloads` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "UploadsAndDownloads" })
