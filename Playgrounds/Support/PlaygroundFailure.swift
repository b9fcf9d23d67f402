/// A check on a playground page that did not hold.
public struct PlaygroundFailure: Error, CustomStringConvertible {
    /// What was expected.
    public let description: String

    /// Creates a failure.
    public init(_ description: String) {
        self.description = description
    }
}
