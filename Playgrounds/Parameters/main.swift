import PlaygroundPages
import PlaygroundSupport

// The "Parameters" page on its own: `swift run Parameters` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Parameters" })
