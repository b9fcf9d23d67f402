// The release before the one clock of a call named the clock-driven latency `.real` (#34: every rename keeps a
// deprecated shim for at least one minor version).
import BothamNetworking

extension StubHTTPClient.LatencyMode {
    /// Latencies are waited for on the call's clock.
    @available(*, deprecated, renamed: "clock")
    public static var real: Self { .clock }
}
