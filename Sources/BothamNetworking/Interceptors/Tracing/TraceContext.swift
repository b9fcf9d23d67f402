extension TracingInterceptor {
    /// A W3C Trace Context (<https://www.w3.org/TR/trace-context/>): the trace a call belongs to and the span it is a
    /// child of, as carried by the `traceparent` and `tracestate` header fields.
    ///
    /// ```swift
    /// let parent = TracingInterceptor.Context(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    /// parent?.traceID   // "4bf92f3577b34da6a3ce929d0e0e4736"
    /// ```
    public struct Context: Sendable, Hashable {
        /// The trace.
        package var trace: TraceID
        /// The span a receiver of this context is a child of (the header's `parent-id`).
        package var span: SpanID
        /// The trace flags (``TraceFlags/sampled``).
        package var flags: TraceFlags
        /// The vendors' entries, passed on unchanged; `nil` when there are none.
        package var state: TraceState?

        /// A context of these ids.
        package init(trace: TraceID, span: SpanID, flags: TraceFlags = .sampled, state: TraceState? = nil) {
            self.trace = trace
            self.span = span
            self.flags = flags
            self.state = state
        }

        /// The trace's id: 32 lowercase hex digits.
        public var traceID: String { trace.hex }

        /// The id of the span a receiver of this context is a child of (the header's `parent-id`): 16 lowercase hex
        /// digits.
        public var spanID: String { span.hex }

        /// Whether the trace is sampled (the `sampled` trace flag).
        package var isSampled: Bool { flags.contains(.sampled) }

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
                trace: traceID, span: spanID, flags: TraceFlags(rawValue: UInt8(truncatingIfNeeded: flags)),
                state: tracestate.flatMap { TraceState($0) })
        }

        /// The `traceparent` field value, version `00`: `00-<trace id>-<span id>-<flags>`.
        package var traceparent: String {
            "00-\(trace.hex)-\(span.hex)-\(TraceHex.format(UInt64(flags.rawValue), digits: 2))"
        }

        /// The `tracestate` field value, or `nil` when there are no entries.
        package var tracestate: String? { state?.fieldValue }

        /// A child of this context: the same trace, flags and state, with `span` as the span its receivers are
        /// children of.
        package func child(span: SpanID) -> Context {
            Context(trace: trace, span: span, flags: flags, state: state)
        }
    }
}
