import PlaygroundPages
import PlaygroundSupport

// The "Streaming" page on its own: `swift run Streaming`.
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Streaming" })
