import PlaygroundPages
import PlaygroundSupport

// The "WebSockets" page on its own: `swift run WebSockets`.
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "WebSockets" })
