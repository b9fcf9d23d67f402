import PlaygroundPages
import PlaygroundSupport

// The "TestingWithStubs" page on its own: `swift run TestingWithStubs` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "TestingWithStubs" })
