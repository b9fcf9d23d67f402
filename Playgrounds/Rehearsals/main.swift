import PlaygroundPages
import PlaygroundSupport

// The "Rehearsals" page on its own: `swift run Rehearsals`.
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "Rehearsals" })
