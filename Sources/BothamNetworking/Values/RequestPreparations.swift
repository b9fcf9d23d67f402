import Foundation

/// What preparation established about the requests of the running call: for each request the call prepared, the URL
/// it resolved, whether the transport's own header fields were added, and whether the pipeline prepared it again
/// after an `HTTPInterceptor` changed it.
///
/// The call holds this, not the request: the pipeline gives each call a ``Ledger`` of its own, reached through the
/// task-local ``current`` for the whole call, so an ``HTTPRequest`` holds only what the user said and two requests
/// with the same fields are the same value. A transport learns that the request it is given is the one its call prepared by
/// looking it up here (`HTTPRequest.prepared(for:)`): by its storage's identity first (the request the pipeline
/// handed on, unchanged), then by the fields preparation checks (`HTTPRequestStorage.Fields.preparesAlike(_:)`: a
/// copy with another timeout or response destination is still prepared). Outside a call nothing is recorded and
/// every preparation runs in full.
enum RequestPreparations {
    /// One prepared request of the call.
    struct Record: Sendable {
        /// The prepared request; holding it keeps its storage, the record's key, alive as long as the record.
        let request: HTTPRequest
        /// The URL preparation resolved.
        let url: URL
        /// Whether the header fields of the transport it was prepared for were added (so a field an interceptor
        /// removed afterwards stays removed).
        let transportFieldsAdded: Bool
        /// Whether the pipeline prepared it again after an `HTTPInterceptor` changed or replaced the prepared request.
        let changedAfterPreparation: Bool
    }

    /// The records of one call, by the identity of each prepared request's storage.
    final class Ledger: Sendable {
        let records = Lock<[ObjectIdentifier: Record]>([:])
    }

    /// The ledger of the call running on this task (the pipeline sets it for the whole call), or `nil` outside one.
    @TaskLocal static var current: Ledger?

    /// The record of `request` in the running call, if the call prepared it (or a request that prepares alike).
    static func record(of request: HTTPRequest) -> Record? {
        guard let ledger = current else { return nil }
        return ledger.records.withLock { records in
            guard !records.isEmpty else { return nil }
            if let record = records[request.storageIdentity] { return record }
            return records.values.first { $0.request.preparesAlike(request) }
        }
    }

    /// Records that the running call prepared `request` (nothing outside a call).
    static func remember(
        _ request: HTTPRequest, url: URL, transportFieldsAdded: Bool, changedAfterPreparation: Bool = false
    ) {
        guard let ledger = current else { return }
        let record = Record(
            request: request, url: url, transportFieldsAdded: transportFieldsAdded,
            changedAfterPreparation: changedAfterPreparation)
        ledger.records.withLock { $0[request.storageIdentity] = record }
    }
}
