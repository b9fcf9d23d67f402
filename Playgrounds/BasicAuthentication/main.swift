import PlaygroundPages
import PlaygroundSupport

// The "BasicAuthentication" page on its own: `swift run BasicAuthentication` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "BasicAuthentication" })
