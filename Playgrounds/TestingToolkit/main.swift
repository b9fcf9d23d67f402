import PlaygroundPages
import PlaygroundSupport

// The "TestingToolkit" page on its own: `swift run TestingToolkit`.
await PlaygroundRunner.main(allPlaygroundPages.filter { $0.name == "TestingToolkit" })
