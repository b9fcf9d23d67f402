/// One page of the playground: a short program that shows a feature and checks that it did what it says.
public protocol PlaygroundPage: Sendable {
    /// The page's name, as in `swift run <name>`.
    static var name: String { get }
    /// What the page shows, in one line.
    static var summary: String { get }
    /// Runs the page.
    static func run(_ context: PlaygroundContext) async throws
}
