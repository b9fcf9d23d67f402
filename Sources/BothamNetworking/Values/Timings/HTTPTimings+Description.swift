extension HTTPResponse.Timings: CustomStringConvertible {
    /// The measured phases on one line, each with its duration, then whether the connection was reused:
    /// `dns 0.4ms connect 0.2ms tls 3.1ms send 0.1ms wait 12.0ms receive 0.5ms new connection`.
    public var description: String {
        var parts = phases.map { "\($0.name) \($0.phase.duration.millisecondsText(unitSeparator: ""))" }
        switch reusedConnection {
        case true?: parts.append("reused connection")
        case false?: parts.append("new connection")
        case nil: break
        }
        return parts.isEmpty ? "no phases measured" : parts.joined(separator: " ")
    }
}
