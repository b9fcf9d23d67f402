import BothamNetworking
import Testing

@Suite("W3C Trace Context values", .timeLimit(.minutes(1)))
struct TraceContextTests {
    static let example = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test("The specification's example traceparent parses and prints back the same")
    func roundTrip() throws {
        let context = try #require(TracingInterceptor.Context(traceparent: Self.example))
        #expect(context.trace.hex == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.span.hex == "00f067aa0ba902b7")
        #expect(context.flags == .sampled)
        #expect(context.traceparent == Self.example)
        #expect(context.tracestate == nil)
    }

    @Test(
        "Invalid traceparent values are rejected",
        arguments: [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",  // no flags
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // upper case
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // zero parent id
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // forbidden version
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 with more fields
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // wrong separator
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",  // not hex
        ])
    func invalid(traceparent: String) {
        #expect(TracingInterceptor.Context(traceparent: traceparent) == nil)
    }

    @Test("A later version's extra fields are ignored, and it is sent on as version 00")
    func laterVersion() throws {
        let context = try #require(
            TracingInterceptor.Context(
                traceparent: "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-what-the-future-holds"))
        #expect(context.traceparent == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03")
        #expect(
            TracingInterceptor.Context(traceparent: "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x") == nil)
    }

    @Test("Ids are lowercase hex of fixed width, padded with zeros, and never all zero")
    func ids() throws {
        #expect(try #require(TraceID(high: 0, low: 1)).hex == "00000000000000000000000000000001")
        #expect(try #require(SpanID(0xAB)).hex == "00000000000000ab")
        #expect(TraceID(high: 0, low: 0) == nil)
        #expect(SpanID(0) == nil)
        #expect(TraceID(hex: "00000000000000000000000000000000") == nil)
        #expect(SpanID(hex: "00f067aa0ba902b7")?.value == 0x00F0_67AA_0BA9_02B7)
    }

    @Test("A source that draws zeros still makes non-zero ids")
    func zeroDraws() {
        let zeros = TraceIDSource { 0 }
        #expect(zeros.spanID().value != 0)
        let traceID = zeros.traceID()
        #expect(traceID.high != 0 || traceID.low != 0)
    }

    @Test("A valid tracestate is kept entry for entry, spaces around members dropped")
    func traceState() throws {
        let state = try #require(TraceState("rojo=00f067aa0ba902b7 , congo=t61rcWkgMzE,,tenant@vendor=x y"))
        #expect(state.entries.map(\.key) == ["rojo", "congo", "tenant@vendor"])
        #expect(state.fieldValue == "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE,tenant@vendor=x y")
        let context = try #require(TracingInterceptor.Context(traceparent: Self.example, tracestate: " rojo=1 "))
        #expect(context.tracestate == "rojo=1")
    }

    @Test(
        "An invalid tracestate is dropped",
        arguments: [
            "", "Rojo=1", "rojo", "rojo=1,rojo=2", "rojo=a,b", "1abc=x", "@vendor=x", "tenant@=x", "rojo=a=b",
            "rojo=\u{7F}",
        ])
    func invalidTraceState(_ value: String) {
        #expect(TraceState(value) == nil)
        #expect(TracingInterceptor.Context(traceparent: Self.example, tracestate: value)?.state == nil)
    }

    @Test("A tracestate holds at most 32 entries")
    func traceStateLimit() {
        let entries = (0..<33).map { (key: "k\($0)", value: "v") }
        #expect(TraceState(entries: Array(entries.prefix(32)))?.entries.count == 32)
        #expect(TraceState(entries: entries) == nil)
        #expect(TraceState(entries: [(key: "rojo", value: "trailing ")]) == nil)
    }
}
