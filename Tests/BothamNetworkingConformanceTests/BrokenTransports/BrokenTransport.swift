import BothamNetworking
import BothamNetworkingConformance
import Testing

/// A deliberately broken transport, and the checks it must fail: exactly those, no more, no fewer.
enum BrokenTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``HandFollowsRedirects``, forwarding credentials across origins.
    case forwardsCredentials
    /// ``MisconfiguredNative/ignoringTimeouts(_:)``.
    case ignoresTimeouts
    /// ``FoldsRepeatedFields``.
    case foldsRepeatedFields
    /// ``MapsLostConnectionWrongly``.
    case mapsLostConnectionWrongly
    /// ``DoesNotStream``.
    case doesNotStream
    /// ``HandFollowsRedirects``, dropping the body of a 307 or 308.
    case dropsBodyOnRedirect
    /// ``ReportsNoProgress``.
    case reportsNoProgress
    /// ``HandFollowsRedirects``, keeping `POST` and its body after a 301, 302 or 303.
    case keepsPostOnRedirect
    /// ``MisconfiguredNative/ignoringRedirectPolicy(_:)``.
    case ignoresRedirectPolicy
    /// ``MisconfiguredNative/ignoringSizeLimits(_:)``.
    case ignoresSizeLimits
    /// ``MisconfiguredNative/notDecoding(_:)``.
    case doesNotDecode
    /// ``DropsQuery``.
    case dropsQuery
    /// ``SendsFilesEmpty``.
    case sendsFilesEmpty

    var testDescription: String { rawValue }

    /// A new transport of this kind with `configuration`.
    func make(_ configuration: ConformanceClientConfiguration) -> any HTTPClient {
        switch self {
        case .forwardsCredentials: return HandFollowsRedirects(configuration, flaw: .forwardsCredentials)
        case .ignoresTimeouts: return MisconfiguredNative.ignoringTimeouts(configuration)
        case .foldsRepeatedFields: return FoldsRepeatedFields(configuration)
        case .mapsLostConnectionWrongly: return MapsLostConnectionWrongly(configuration)
        case .doesNotStream: return DoesNotStream(configuration)
        case .dropsBodyOnRedirect: return HandFollowsRedirects(configuration, flaw: .dropsBody)
        case .reportsNoProgress: return ReportsNoProgress(configuration)
        case .keepsPostOnRedirect: return HandFollowsRedirects(configuration, flaw: .keepsMethodOnEveryStatus)
        case .ignoresRedirectPolicy: return MisconfiguredNative.ignoringRedirectPolicy(configuration)
        case .ignoresSizeLimits: return MisconfiguredNative.ignoringSizeLimits(configuration)
        case .doesNotDecode: return MisconfiguredNative.notDecoding(configuration)
        case .dropsQuery: return DropsQuery(configuration)
        case .sendsFilesEmpty: return SendsFilesEmpty(configuration)
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
        case .keepsPostOnRedirect:
            return [.redirectPostBecomesGet]
        case .ignoresRedirectPolicy:
            return [.redirectFollowAtMost, .redirectDoNotFollow]
        case .ignoresSizeLimits:
            return [.maxResponseBytes, .maxFileResponseBytes]
        case .doesNotDecode:
            return [.decodedBodies]
        case .dropsQuery:
            return [.query]
        case .sendsFilesEmpty:
            return [.uploadFromFile, .redirectResendsFile, .transferProgress]
        }
    }

    /// The suite for this transport, with the test run's time scale.
    var conformance: TransportConformance {
        brokenConformance { make($0) }
    }
}
