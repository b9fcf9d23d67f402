import Foundation

/// One event of a `text/event-stream` (WHATWG HTML, "Server-sent events").
///
/// ```swift
/// let body: JSONValue = ["model": "small", "stream": true, "messages": [["role": "user", "content": "Hello"]]]
/// for try await event in try await apiClient.stream(.post, "/chat/completions", body: .json(body)).events {
///     guard event.type == "message", event.data != "[DONE]" else { continue }
///     let delta = try event.decoded(as: ChatDelta.self)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event:` field of the event, or `"message"` when it had none.
    public var type: String
    /// The data: the `data:` fields joined with LF.
    public var data: String
    /// The last event ID at the time of this event (`id:` fields persist from one event to the next), or `nil` when
    /// none has been set (or it was set to the empty string).
    public var id: String?

    /// Creates an event.
    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }

    /// The data decoded from JSON.
    ///
    /// - Throws: ``APIClientError/parsingError(body:underlying:)`` carrying the data when it does not decode.
    public func decoded<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws(APIClientError)
        -> T
    {
        let bytes = Data(data.utf8)
        do {
            return try decoder.decode(T.self, from: bytes)
        } catch {
            throw .parsingError(body: bytes, underlying: error)
        }
    }
}
