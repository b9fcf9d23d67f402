import PlaygroundPages
import PlaygroundSupport

// The "Headers" page on its own: `swift run Headers` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Headers" })
