/// One guarantee a transport makes, checked against a loopback `MockWebServer`.
///
/// ``TransportConformance/checks`` lists every check (``TransportConformance/checks(in:)`` those of one area); a
/// check is identified by its ``id`` (two checks are equal when their ids are), which every report prints and
/// ``TransportConformance/skipped`` is keyed by. Its ``description`` is the ``id``, so a parameterised test names
/// each case by it:
///
/// ```swift
/// @Test(arguments: TransportConformance.checks)
/// func conforms(check: ConformanceCheck) async {
///     let result = await TransportConformance { _ in MyHTTPClient() }.run(check)
///     #expect(result.outcome == .passed, "\(result)")
/// }
/// ```
public struct ConformanceCheck: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// A stable identifier, `area.name` (for example `redirects.crossOriginStripsCredentials`).
    public let id: String
    /// The guarantee in one sentence.
    public let title: String
    /// The group the check belongs to.
    public let area: ConformanceArea
    /// Runs the check: returns when the transport kept the guarantee, throws why not otherwise.
    let body: @Sendable (ConformanceContext) async throws -> Void

    init(
        _ area: ConformanceArea, _ name: String, _ title: String,
        body: @escaping @Sendable (ConformanceContext) async throws -> Void
    ) {
        self.id = "\(area.rawValue).\(name)"
        self.title = title
        self.area = area
        self.body = body
    }

    /// The ``id``.
    public var description: String { id }

    /// Whether both are the same check (the same ``id``).
    public static func == (lhs: ConformanceCheck, rhs: ConformanceCheck) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the ``id``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
