import PlaygroundPages
import PlaygroundSupport

// The "Retry" page on its own: `swift run Retry` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Retry" })
