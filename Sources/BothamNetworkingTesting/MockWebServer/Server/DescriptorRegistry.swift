import BothamNetworking

/// Tracks every descriptor the server opens, so shutdown can prove nothing is left open and tests can check
/// that no descriptor the server ever opened is still present in the process.
final class DescriptorRegistry: Sendable {
    private struct State {
        var open: Set<Int32> = []
        var identities: [DescriptorIdentity] = []
    }

    private let state = Lock(State())

    /// Records a freshly opened descriptor.
    func register(_ descriptor: Int32) {
        let identity = SystemCalls.identity(of: descriptor)
        state.withLock { state in
            state.open.insert(descriptor)
            if let identity { state.identities.append(identity) }
        }
    }

    /// Closes a descriptor that was registered, exactly once.
    func close(_ descriptor: Int32) {
        let wasOpen = state.withLock { state in state.open.remove(descriptor) != nil }
        if wasOpen {
            SystemCalls.closeDescriptor(descriptor)
        }
    }

    /// How many registered descriptors are still open.
    var openCount: Int {
        state.withLock { $0.open.count }
    }

    /// The identities of every descriptor ever registered.
    var identities: [DescriptorIdentity] {
        state.withLock { $0.identities }
    }
}

/// What a descriptor refers to (device and inode), which, unlike the descriptor number, is not reused while the
/// object is open. Lets tests check that nothing the server opened is still open in the process.
package struct DescriptorIdentity: Hashable, Sendable {
    /// The device of the object (for sockets and pipes, the kernel's pseudo file system).
    package var device: UInt64
    /// The inode of the object.
    package var inode: UInt64

    /// Creates an identity.
    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
