import PlaygroundPages
import PlaygroundSupport

// The "Interceptors" page on its own: `swift run Interceptors` (add `--base-url URL` to use a real httpbin).
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Interceptors" })
