import Foundation

/// What preparation established about the requests of the running call: for each request the call prepared, the URL
/// it resolved, whether the transport's own header fields were added, and whether the pipeline prepared it again
/// after an `HTTPInterceptor` changed it.
///
/// The call holds this, not the request: each call keeps its ``Records`` in its storage (``HTTPCallStorage``),
/// reached through the task-local `HTTPCallContext.current` for the whole call, so an ``HTTPRequest`` holds only what
/// the user said and two requests with the same fields are the same value. A transport learns that the request it is
/// given is the one its call prepared by looking it up here (`HTTPRequest.prepared(for:)`): by its storage's identity
/// first (the request the pipeline handed on, unchanged), then by the fields preparation checks
/// (`HTTPRequestStorage.Fields.preparesAlike(_:)`: a copy with another timeout or response destination is still
/// prepared). Outside a call nothing is recorded and every preparation runs in full.
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

    /// The records of one call: the first inline (a call prepares one request per attempt, so its records usually
    /// allocate nothing), the others after it; a request's own record (its storage) is found before one that merely
    /// prepares alike.
    struct Records: Sendable {
        var first: Record?
        var others: [Record] = []

        func record(of request: HTTPRequest) -> Record? {
            if let first, first.request.sharesStorage(with: request) { return first }
            if let own = others.first(where: { $0.request.sharesStorage(with: request) }) { return own }
            if let first, first.request.preparesAlike(request) { return first }
            return others.first { $0.request.preparesAlike(request) }
        }

        mutating func remember(_ record: Record) {
            guard let current = first, !current.request.sharesStorage(with: record.request) else {
                first = record
                return
            }
            if let index = others.firstIndex(where: { $0.request.sharesStorage(with: record.request) }) {
                others[index] = record
            } else {
                others.append(record)
            }
        }
    }
}
