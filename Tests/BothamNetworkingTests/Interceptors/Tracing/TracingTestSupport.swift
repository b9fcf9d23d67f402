import BothamNetworking
import BothamTestSupport
import Foundation

/// What a ``RecordingTracer`` saw, in order.
enum SpanEvent: Sendable, Equatable {
    case started(
        TracingInterceptor.SpanStart.Kind, name: String, url: String, spanID: SpanID, parentSpanID: SpanID?,
        trace: TraceID)
    case ended(TracingInterceptor.SpanStart.Kind, statusCode: Int?, errorKind: String?, attempts: Int)

    var isStart: Bool {
        if case .started = self { return true }
        return false
    }
}

/// A tracer recording every start and end.
struct RecordingTracer: TracingInterceptor.Tracer {
    let events = Recorder<SpanEvent>()
    /// The parents given to attempt spans, as the call span's kind seen through them.
    let parents = Recorder<TracingInterceptor.SpanStart.Kind?>()

    func startSpan(_ start: TracingInterceptor.SpanStart) -> any TracingInterceptor.Span {
        events.append(
            .started(
                start.kind, name: start.name, url: start.url, spanID: start.traceContext.span,
                parentSpanID: start.parentSpanID, trace: start.traceContext.trace))
        parents.append((start.parent as? RecordedSpan)?.kind)
        return RecordedSpan(kind: start.kind, events: events)
    }
}

/// A span of ``RecordingTracer``.
struct RecordedSpan: TracingInterceptor.Span {
    let kind: TracingInterceptor.SpanStart.Kind
    let events: Recorder<SpanEvent>

    func end(_ end: TracingInterceptor.SpanEnd) {
        events.append(.ended(kind, statusCode: end.statusCode, errorKind: end.errorKind, attempts: end.attempts))
    }
}

/// A source of ids counting up from 1, so that every id drawn is known.
func countingIDs() -> TraceIDSource {
    let next = Lock<UInt64>(0)
    return TraceIDSource {
        next.withLock { value in
            value += 1
            return value
        }
    }
}

/// Whether `value` is `00-<32 lowercase hex>-<16 lowercase hex>-<2 lowercase hex>` with non-zero ids, checked
/// without the parser under test.
func isValidTraceparent(_ value: String) -> Bool {
    let parts = value.split(separator: "-", omittingEmptySubsequences: false)
    let isLowerHex = { (part: Substring) in
        part.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
    guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16, parts[3].count == 2,
        parts.allSatisfy(isLowerHex)
    else { return false }
    return parts[1].contains(where: { $0 != "0" }) && parts[2].contains(where: { $0 != "0" })
}
