import BothamNetworking
import BothamNetworkingConformance
import Testing

/// A deliberately broken transport, and the checks it must fail: exactly those, no more, no fewer.
enum BrokenTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``ForwardsCredentialsAcrossOrigins``.
    case forwardsCredentials
    /// ``IgnoresTimeouts``.
    case ignoresTimeouts
    /// ``FoldsRepeatedFields``.
    case foldsRepeatedFields
    /// ``MapsLostConnectionWrongly``.
    case mapsLostConnectionWrongly
    /// ``DoesNotStream``.
    case doesNotStream
    /// ``DropsBodyOnRedirect``.
    case dropsBodyOnRedirect
    /// ``ReportsNoProgress``.
    case reportsNoProgress

    var testDescription: String { rawValue }

    /// A new transport of this kind with `configuration`.
    func make(_ configuration: ConformanceClientConfiguration) -> any HTTPClient {
        switch self {
        case .forwardsCredentials: return ForwardsCredentialsAcrossOrigins(configuration)
        case .ignoresTimeouts: return IgnoresTimeouts(configuration)
        case .foldsRepeatedFields: return FoldsRepeatedFields(configuration)
        case .mapsLostConnectionWrongly: return MapsLostConnectionWrongly(configuration)
        case .doesNotStream: return DoesNotStream(configuration)
        case .dropsBodyOnRedirect: return DropsBodyOnRedirect(configuration)
        case .reportsNoProgress: return ReportsNoProgress(configuration)
        }
    }

    /// The checks it fails.
    var failures: Set<ConformanceCheck> {
        switch self {
        case .forwardsCredentials:
            return [.redirectCrossOriginStripsCredentials, .redirectStrippedStaysStripped]
        case .ignoresTimeouts:
            return [.requestTimeout, .idleTimeout, .attemptTimeout, .maxAttemptTimeout, .streamIdleTimeout]
        case .foldsRepeatedFields:
            return [.repeatedResponseFields]
        case .mapsLostConnectionWrongly:
            return [.faultReset, .faultDropAfterHead, .faultDropMidBody, .faultShortBody, .faultTruncatedChunkedBody]
        case .doesNotStream:
            // The head waits for the whole body: a dropped body fails the call, a stalled one times it out, and a
            // body that never ends never gives a head to cancel.
            return [.streamHeadBeforeBody, .streamDropMidStream, .streamIdleTimeout, .streamCancel]
        case .dropsBodyOnRedirect:
            // A 307 or 308 is followed with an empty body, whether it was in memory, streamed or in a file.
            return [.redirectKeepsMethodAndBody, .redirectStreamedBody, .redirectResendsFile]
        case .reportsNoProgress:
            return [.transferProgress]
        }
    }

    /// The suite for this transport, with the test run's time scale.
    var conformance: TransportConformance {
        brokenConformance { make($0) }
    }
}
