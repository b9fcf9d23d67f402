/// A W3C Trace Context (<https://www.w3.org/TR/trace-context/>): the trace a call belongs to and the span it is a
/// child of, as carried by the `traceparent` and `tracestate` header fields.
///
/// ```swift
/// let parent = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
/// parent?.traceID.hex   // "4bf92f3577b34da6a3ce929d0e0e4736"
/// ```
public struct TraceContext: Sendable, Hashable {
    /// The trace.
    public var traceID: TraceID
    /// The span a receiver of this context is a child of (the header's `parent-id`).
    public var spanID: SpanID
    /// The trace flags (``TraceFlags/sampled``).
    public var flags: TraceFlags
    /// The vendors' entries, passed on unchanged; `nil` when there are none.
    public var state: TraceState?

    /// A context of these ids.
    public init(traceID: TraceID, spanID: SpanID, flags: TraceFlags = .sampled, state: TraceState? = nil) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.state = state
    }

    /// Parses a received `traceparent` (and its `tracestate`, dropped when invalid); `nil` when `traceparent` is
    /// invalid: not `version-traceid-parentid-flags` in lowercase hex, version `ff`, an all-zero id, or a version
    /// `00` field with anything after the flags. A later version's extra fields (after a `-`) are ignored.
    public init?(traceparent: String, tracestate: String? = nil) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
            bytes[52] == UInt8(ascii: "-"), let version = TraceHex.parse(bytes[0..<2]), version != 0xFF,
            bytes.count == 55 || (version != 0 && bytes[55] == UInt8(ascii: "-")),
            let high = TraceHex.parse(bytes[3..<19]), let low = TraceHex.parse(bytes[19..<35]),
            let traceID = TraceID(high: high, low: low),
            let span = TraceHex.parse(bytes[36..<52]), let spanID = SpanID(span),
            let flags = TraceHex.parse(bytes[53..<55])
        else { return nil }
        self.init(
            traceID: traceID, spanID: spanID, flags: TraceFlags(rawValue: UInt8(truncatingIfNeeded: flags)),
            state: tracestate.flatMap { TraceState($0) })
    }

    /// The `traceparent` field value, version `00`: `00-<trace id>-<span id>-<flags>`.
    public var traceparent: String {
        "00-\(traceID.hex)-\(spanID.hex)-\(TraceHex.format(UInt64(flags.rawValue), digits: 2))"
    }

    /// The `tracestate` field value, or `nil` when there are no entries.
    public var tracestate: String? { state?.fieldValue }

    /// A child of this context: the same trace, flags and state, with `spanID` as the span its receivers are
    /// children of.
    public func child(spanID: SpanID) -> TraceContext {
        TraceContext(traceID: traceID, spanID: spanID, flags: flags, state: state)
    }
}
