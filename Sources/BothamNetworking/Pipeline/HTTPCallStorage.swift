import Foundation

/// What one call's attempts share: the values of ``HTTPCallContext`` (``HTTPCallValueKey``) and the sends of its
/// ``SendBudget``.
struct HTTPCallState {
    /// The typed per-call values, by key type.
    var values: [ObjectIdentifier: any Sendable] = [:]
    /// Sends made to the transport so far (counted only for calls with onion interceptors).
    var sends = 0
    /// What the transport answered last (kept only for calls with onion interceptors), in a box of its own so that a
    /// call that never records one carries one word for it, not a whole response.
    var lastSend: SentOutcome?
}

/// One transport outcome, kept by ``SendBudget``.
final class SentOutcome: Sendable {
    let result: Result<HTTPResponse, APIClientError>

    init(_ result: Result<HTTPResponse, APIClientError>) {
        self.result = result
    }
}

/// The storage of one call, created when the call starts (its first ``HTTPCallContext``) and released with the last
/// context that refers to it: its ``HTTPCallState`` and the records of its preparations (``RequestPreparations``),
/// each behind a mutex of its own, in one heap object. There is no table of calls anywhere: a call's storage is
/// reachable only from that call's contexts.
///
/// Two mutexes, so that what runs under one (an `update(_:_:)` body, which may resolve a request's URL) may take the
/// other. `@unchecked Sendable` is sound for the same reason as ``Lock``'s: each part is only read or written inside
/// the method that holds its mutex for the whole closure, and the two parts are separate stored properties of the
/// header, reached through a pointer (separate memory, never the header as a whole). Copies share the one object.
struct HTTPCallStorage: @unchecked Sendable {
    private struct Parts {
        var state = HTTPCallState()
        var preparations = RequestPreparations.Records()
    }

    private let buffer = MutexBuffer.make(Parts(), mutexes: 2)

    /// A new call's storage: no values, no sends, no records.
    init() {}

    /// Runs `body` with exclusive access to the call's state.
    @discardableResult
    func withLock<T>(_ body: (inout HTTPCallState) throws -> T) rethrows -> T {
        try buffer.withLocked(mutex: 0) { header in try body(&header.pointee.value.state) }
    }

    /// Runs `body` with exclusive access to the records of the call's preparations.
    func withPreparations<T>(_ body: (inout RequestPreparations.Records) -> T) -> T {
        buffer.withLocked(mutex: 1) { header in body(&header.pointee.value.preparations) }
    }
}

// Where a call's preparation records are: in its storage, reached through its context (the task-local every call
// sets), so a call pushes one task-local value, not two.
extension RequestPreparations {
    /// The record of `request` in the running call, if the call prepared it (or a request that prepares alike).
    /// The records are behind a lock of the call's: an `HTTPInterceptor` may send from several tasks.
    static func record(of request: HTTPRequest) -> Record? {
        HTTPCallContext.current?.storage.withPreparations { $0.record(of: request) }
    }

    /// Records that the running call prepared `request` (nothing outside a call).
    static func remember(
        _ request: HTTPRequest, url: URL, transportFieldsAdded: Bool, changedAfterPreparation: Bool = false
    ) {
        guard let storage = HTTPCallContext.current?.storage else { return }
        let record = Record(
            request: request, url: url, transportFieldsAdded: transportFieldsAdded,
            changedAfterPreparation: changedAfterPreparation)
        storage.withPreparations { $0.remember(record) }
    }
}
