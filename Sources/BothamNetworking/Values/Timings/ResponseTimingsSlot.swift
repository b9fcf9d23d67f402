/// Where an ``HTTPResponse`` keeps its ``HTTPResponse/Timings``: out of line (one pointer in the response, allocated only
/// when a transport measured something) and out of its equality, since two responses that differ only in how long
/// they took are the same response (a replayed recording equals the live one).
struct ResponseTimingsSlot: Sendable, Hashable {
    /// Immutable, so sharing it between copies of a response (and tasks) is safe.
    private final class Box: Sendable {
        let timings: HTTPResponse.Timings

        init(_ timings: HTTPResponse.Timings) {
            self.timings = timings
        }
    }

    private let box: Box?

    init(_ timings: HTTPResponse.Timings?) {
        box = timings.map(Box.init)
    }

    var timings: HTTPResponse.Timings? { box?.timings }

    /// Always equal: timings are a measurement, not part of the response.
    static func == (lhs: ResponseTimingsSlot, rhs: ResponseTimingsSlot) -> Bool { true }

    /// Adds nothing, as ``==`` ignores the timings.
    func hash(into hasher: inout Hasher) {}
}
