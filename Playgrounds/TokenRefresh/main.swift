import PlaygroundPages
import PlaygroundSupport

// The "TokenRefresh" page on its own: `swift run TokenRefresh` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "TokenRefresh" })
