import PlaygroundPages
import PlaygroundSupport

// The "TypedEndpoints" page on its own: `swift run TypedEndpoints` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "TypedEndpoints" })
