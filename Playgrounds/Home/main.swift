import PlaygroundPages
import PlaygroundSupport

// The "Home" page on its own: `swift run Home` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Home" })
