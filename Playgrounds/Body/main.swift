import PlaygroundPages
import PlaygroundSupport

// The "Body" page on its own: `swift run Body` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Body" })
