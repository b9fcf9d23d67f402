import PlaygroundPages
import PlaygroundSupport

// The "Caching" page on its own: `swift run Caching`.
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Caching" })
