/// Where an ``HTTPResponse`` keeps the connection a `101 Switching Protocols` handed over (a WebSocket channel's
/// handle): out of its equality, since two responses with the same fields are the same response whatever
/// connection they came with.
struct UpgradeSlot: Sendable, Hashable {
    /// The handle, when the response switched protocols.
    let handle: (any AnyObject & Sendable)?

    init(_ handle: (any AnyObject & Sendable)? = nil) {
        self.handle = handle
    }

    /// Always equal: the connection is not part of the response's value.
    static func == (lhs: UpgradeSlot, rhs: UpgradeSlot) -> Bool { true }

    /// Adds nothing, as ``==`` ignores the connection.
    func hash(into hasher: inout Hasher) {}
}
