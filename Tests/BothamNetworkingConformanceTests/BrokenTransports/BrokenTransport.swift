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
    /// ``RewritingNative/sendingHeadAsGet(_:)``.
    case sendsHeadAsGet
    /// ``RewritingNative/truncatingLargeBodies(_:)``.
    case truncatesLargeBodies
    /// ``RewritingNative/addingUserAgent(_:)``.
    case addsUserAgent
    /// ``RewritingNative/droppingLowercaseFields(_:)``.
    case dropsLowercaseFields
    /// ``RewritingNative/sortingResponseFields(_:)``.
    case sortsResponseFields
    /// ``RewritingNative/throwingOnErrorStatus(_:)``.
    case throwsOnErrorStatus
    /// ``RewritingNative/reportingEveryFailureAsOther(_:)``.
    case reportsEveryFailureAsOther
    /// ``RewritingNative/bufferingDownloads(_:)``.
    case buffersDownloads
    /// ``HandFollowsRedirects``, dropping credentials on every redirect.
    case stripsCredentialsEverywhere
    /// ``HandFollowsRedirects``, returning the last 3xx when out of redirects.
    case returnsTheLastRedirect
    /// ``MisconfiguredNative/boundingAttemptsByIdleTimeout(_:)``.
    case boundsAttemptsByIdleTimeout
    /// ``MisconfiguredNative/timingOutEarly(_:)``.
    case timesOutEarly
    /// ``IgnoresCancellation``.
    case ignoresCancellation
    /// ``LosesFirstChunk``.
    case losesFirstChunk
    /// ``LeaksConnectionOnEarlyExit``.
    case leaksConnectionOnEarlyExit
    /// ``MisreportsWebSockets``.
    case misreportsWebSockets

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
        case .sendsHeadAsGet: return RewritingNative.sendingHeadAsGet(configuration)
        case .truncatesLargeBodies: return RewritingNative.truncatingLargeBodies(configuration)
        case .addsUserAgent: return RewritingNative.addingUserAgent(configuration)
        case .dropsLowercaseFields: return RewritingNative.droppingLowercaseFields(configuration)
        case .sortsResponseFields: return RewritingNative.sortingResponseFields(configuration)
        case .throwsOnErrorStatus: return RewritingNative.throwingOnErrorStatus(configuration)
        case .reportsEveryFailureAsOther: return RewritingNative.reportingEveryFailureAsOther(configuration)
        case .buffersDownloads: return RewritingNative.bufferingDownloads(configuration)
        case .stripsCredentialsEverywhere:
            return HandFollowsRedirects(configuration, flaw: .stripsCredentialsEverywhere)
        case .returnsTheLastRedirect: return HandFollowsRedirects(configuration, flaw: .returnsTheLastRedirect)
        case .boundsAttemptsByIdleTimeout: return MisconfiguredNative.boundingAttemptsByIdleTimeout(configuration)
        case .timesOutEarly: return MisconfiguredNative.timingOutEarly(configuration)
        case .ignoresCancellation: return IgnoresCancellation(configuration)
        case .losesFirstChunk: return LosesFirstChunk(configuration)
        case .leaksConnectionOnEarlyExit: return LeaksConnectionOnEarlyExit(configuration)
        case .misreportsWebSockets: return MisreportsWebSockets(configuration)
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
        case .sendsHeadAsGet:
            return [.methods]
        case .truncatesLargeBodies:
            // The 307 check's POST body is large too.
            return [.requestBodies, .redirectKeepsMethodAndBody]
        case .addsUserAgent:
            return [.requestFieldsAsGiven]
        case .dropsLowercaseFields:
            return [.caseInsensitiveNames]
        case .sortsResponseFields:
            return [.responseFieldOrder]
        case .throwsOnErrorStatus:
            return [.responses, .faultUnauthorizedIsAResponse]
        case .reportsEveryFailureAsOther:
            // Every check that names the kind of a network failure.
            return Set(TransportConformance.checks(in: .faults)).subtracting([.faultUnauthorizedIsAResponse]).union([
                .redirectLoop, .redirectFollowAtMost, .maxResponseBytes, .maxFileResponseBytes,
            ])
        case .buffersDownloads:
            // Held in memory, the body is measured against the memory limit, not the file one.
            return [.downloadToFile, .maxFileResponseBytes]
        case .stripsCredentialsEverywhere:
            // The 307 check also follows Authorization on its same-origin hop.
            return [.redirectSameOriginKeepsCredentials, .redirectKeepsMethodAndBody]
        case .returnsTheLastRedirect:
            return [.redirectLoop, .redirectFollowAtMost]
        case .boundsAttemptsByIdleTimeout:
            return [.idleTimeoutResetByData]
        case .timesOutEarly:
            // Every timeout fires long before its limit; the dripping body's gaps outlast a twentieth of its limit.
            return [
                .withinTimeout, .requestTimeout, .idleTimeout, .idleTimeoutResetByData, .attemptTimeout,
                .maxAttemptTimeout,
            ]
        case .ignoresCancellation:
            return [.cancelledBeforeStart, .cancelWhileWaiting, .cancelMidBody]
        case .losesFirstChunk:
            // Every streaming check that reads what arrived, but the early exit's (it reads any two lines).
            return [.streamLargeBody, .streamHeadBeforeBody, .streamDropMidStream, .streamIdleTimeout, .streamCancel]
        case .leaksConnectionOnEarlyExit:
            return [.streamEarlyExit]
        case .misreportsWebSockets:
            // Every WebSocket check reads a text message, a close code or a pong.
            return Set(TransportConformance.checks(in: .webSockets))
        }
    }

    /// The suite for this transport, with the test run's time scale.
    var conformance: TransportConformance {
        brokenConformance { make($0) }
    }
}
