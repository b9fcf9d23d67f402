import Foundation

extension HTTPTimings: CustomStringConvertible {
    /// The measured phases on one line, each with its duration, then whether the connection was reused:
    /// `dns 0.4ms connect 0.2ms tls 3.1ms send 0.1ms wait 12.0ms receive 0.5ms new connection`.
    public var description: String {
        var parts = phases.map { "\($0.name) \(Self.milliseconds($0.phase.duration))" }
        switch reusedConnection {
        case true?: parts.append("reused connection")
        case false?: parts.append("new connection")
        case nil: break
        }
        return parts.isEmpty ? "no phases measured" : parts.joined(separator: " ")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let ms = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: "%.1fms", ms.isFinite ? ms : 0)
    }
}
