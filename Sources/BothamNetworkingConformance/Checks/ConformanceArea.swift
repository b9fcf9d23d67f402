/// The group a ``ConformanceCheck`` belongs to, in the order ``TransportConformance/checks`` lists them.
public enum ConformanceArea: String, Sendable, Hashable, CaseIterable {
    /// Methods, request and response bodies, status codes, query strings, decoded bodies.
    case verbsAndBodies
    /// Request and response header fields: repeated fields, name case, order, nothing added.
    case headers
    /// Following 301, 302, 303, 307 and 308, the redirect policies, and credentials across origins.
    case redirects
    /// The request's timeout and the idle, attempt and maximum attempt limits.
    case timeouts
    /// Cancelling the calling task before, during and after the head.
    case cancellation
    /// Every row of the fault matrix (docs/FaultMatrix.md) and its documented error kind.
    case faults
    /// The size limits on bodies in memory and in files.
    case sizeLimits
    /// Uploads from a file and downloads to a file.
    case fileBodies
    /// Streamed response bodies (`ResponseBodyDestination.stream`).
    case streaming
    /// WebSockets (RFC 6455) against `MockWebServer`'s scripted peer: messages both ways, close codes both ways,
    /// `1002`, `1007` and `1009` with their error kinds, a dropped connection, the close timeout, pings and the
    /// keep-alive. A transport that cannot run WebSockets fails them (it refuses the open with
    /// `APIClientError.invalidRequest`, as `BothamAPIClient.webSocket(...)` documents): list them in `skipping:`
    /// with that reason.
    case webSockets
}
