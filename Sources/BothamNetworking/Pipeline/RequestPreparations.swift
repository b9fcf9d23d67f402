import Foundation

/// What preparation established about the requests of the running call: for each request the call prepared, the URL
/// it resolved, whether the transport's own header fields were added, and whether the pipeline prepared it again
/// after an `HTTPInterceptor` changed it.
///
/// The call holds this, not the request: records live in the call's state (`HTTPCallState.preparations`, reached
/// through `HTTPCallContext.current`), so an ``HTTPRequest`` holds only what the user said and two requests with the
/// same fields are the same value. A transport learns that the request it is given is the one its call prepared by
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

    /// The record of `request` in the running call, if the call prepared it (or a request that prepares alike).
    static func record(of request: HTTPRequest) -> Record? {
        guard let call = HTTPCallContext.current?.storage else { return nil }
        return call.withLock { state in
            guard !state.preparations.isEmpty else { return nil }
            if let record = state.preparations[request.storageIdentity] { return record }
            return state.preparations.values.first { $0.request.preparesAlike(request) }
        }
    }

    /// Records that the running call prepared `request` (nothing outside a call).
    static func remember(
        _ request: HTTPRequest, url: URL, transportFieldsAdded: Bool, changedAfterPreparation: Bool = false
    ) {
        guard let call = HTTPCallContext.current?.storage else { return }
        let record = Record(
            request: request, url: url, transportFieldsAdded: transportFieldsAdded,
            changedAfterPreparation: changedAfterPreparation)
        call.withLock { $0.preparations[request.storageIdentity] = record }
    }
}
