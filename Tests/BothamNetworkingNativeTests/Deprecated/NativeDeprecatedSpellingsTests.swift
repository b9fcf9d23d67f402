import BothamNetworking
import BothamNetworkingNative
import Testing

// NativeHTTPClient.Configuration's former limit names behave as the limits that replaced them (CONTRIBUTING.md,
// "Versioning"). Swift Testing refuses deprecated tests, so the code using them is a deprecated method reached
// through a protocol: no warning.
@Suite("NativeHTTPClient's deprecated limit names", .timeLimit(.minutes(1)))
struct NativeDeprecatedSpellingsTests {
    let former: any NativeFormerSpellingsScenario = NativeFormerSpellings()

    @Test("requestTimeout, totalTimeout, connectTimeout and the size limits read and write configuration.limits")
    func formerLimitNames() { former.formerLimitNames() }
}

protocol NativeFormerSpellingsScenario: Sendable {
    func formerLimitNames()
}

struct NativeFormerSpellings: NativeFormerSpellingsScenario {
    @available(*, deprecated, message: "uses the deprecated spellings")
    func formerLimitNames() {
        var configuration = NativeHTTPClient.Configuration()
        configuration.requestTimeout = .milliseconds(800)
        configuration.totalTimeout = .seconds(5)
        configuration.connectTimeout = .seconds(2)
        configuration.maxResponseBytes = 2 << 20
        configuration.maxFileResponseBytes = 3 << 20
        #expect(configuration.limits.idleTimeout == .milliseconds(800))
        #expect(configuration.limits.maxAttemptTimeout == .seconds(5))
        #expect(configuration.limits.connectTimeout == .seconds(2))
        #expect(configuration.limits.maxResponseBytes == 2 << 20)
        #expect(configuration.limits.maxFileResponseBytes == 3 << 20)
        configuration.limits.idleTimeout = nil
        #expect(configuration.requestTimeout == .seconds(Int64.max))
        #expect(configuration.totalTimeout == .seconds(5))
    }
}
