import BothamNetworking
import Foundation
import Testing

@Suite("Client identities: never shown, and one chosen per host", .timeLimit(.minutes(1)))
struct TLSClientIdentityTests {
    static let keyPEM =
        "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEH-secret-key\n-----END PRIVATE KEY-----"
    static let password = "hunter2-password"

    @Test("Neither the description, the debug description nor a dump of a configuration shows a key or a password")
    func identitiesAreRedacted() {
        let key = Data(Self.keyPEM.utf8)
        let configuration = TLSConfiguration(
            clientIdentity: .pem(certificateChain: Data("chain".utf8), privateKey: key, password: Self.password),
            clientIdentities: [
                "a.example.com": .pkcs12(key, password: Self.password),
                "b.example.com": .pemFiles(
                    certificateChain: "/etc/chain.pem", privateKey: "/etc/key.pem", password: Self.password),
                "c.example.com": .pkcs12File("/etc/c.p12", password: Self.password),
            ])
        var dumped = ""
        dump(configuration, to: &dumped)
        var texts = [dumped, "\(configuration)", String(reflecting: configuration)]
        for identity in [configuration.clientIdentity] + configuration.clientIdentities.values.map(Optional.some) {
            guard let identity else { continue }
            var dumpedIdentity = ""
            dump(identity, to: &dumpedIdentity)
            texts += [identity.description, identity.debugDescription, "\(identity)", dumpedIdentity]
        }
        for text in texts {
            #expect(!text.contains(Self.password), "\(text)")
            #expect(!text.contains("secret-key"), "\(text)")
        }
        #expect(texts.contains { $0.contains("/etc/key.pem") }, "the paths are shown, they are no secret")
    }

    @Test("Several spellings of one host: the one that sorts first is chosen, whatever the dictionary's order")
    func spellingsOfOneHost() {
        let first = TLSConfiguration.ClientIdentity.pkcs12File("/first.p12", password: "")
        let second = TLSConfiguration.ClientIdentity.pkcs12File("/second.p12", password: "")
        let fallback = TLSConfiguration.ClientIdentity.pkcs12File("/default.p12", password: "")
        for extra in 0..<40 {
            // Other hosts, a different number each time, so the dictionary's order of the two spellings varies.
            var identities = ["API.example.com": first, "api.example.com.": second]
            for index in 0..<extra { identities["host\(index).example.com"] = second }
            let configuration = TLSConfiguration(clientIdentity: fallback, clientIdentities: identities)
            #expect(configuration.clientIdentity(for: "api.example.com") == first)
            #expect(configuration.clientIdentity(for: "API.EXAMPLE.COM.") == first)
            #expect(configuration.clientIdentity(for: "other.example.com") == fallback)
            // What URLSessionHTTPClient loads up front: the same choice, one entry per host.
            #expect(configuration.clientIdentitiesByHost["api.example.com"] == first)
            #expect(configuration.clientIdentitiesByHost.count == extra + 1)
        }
        #expect(TLSConfiguration(clientIdentity: fallback).clientIdentity(for: "api.example.com") == fallback)
    }
}
