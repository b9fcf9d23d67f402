import BothamNetworking
import Foundation
import Testing

@Suite("Public-key pins: SPKI extraction, SHA-256 and the matching rules", .timeLimit(.minutes(1)))
struct TLSPublicKeyPinsTests {
    private static func digest(_ base64: String) -> Data { Data(base64Encoded: base64) ?? Data() }

    @Test(
        "the SPKI SHA-256 of RSA, EC and X.509 v1 certificates equals the pin openssl computes",
        arguments: [
            (TLSTestCertificates.rsaPEM, TLSTestCertificates.rsaPin),
            (TLSTestCertificates.ecPEM, TLSTestCertificates.ecPin),
            (TLSTestCertificates.v1PEM, TLSTestCertificates.v1Pin),
        ])
    func spkiDigestMatchesOpenSSL(pem: String, pin: String) {
        let der = TLSTestCertificates.der(pem)
        #expect(!der.isEmpty)
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: der) == Self.digest(pin))
    }

    @Test("a certificate that is not well-formed DER has no digest, and matches no pin")
    func malformedCertificateHasNoDigest() throws {
        let der = TLSTestCertificates.der(TLSTestCertificates.ecPEM)
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: Data()) == nil)
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: der.prefix(der.count - 1)) == nil)
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: der + Data([0])) == nil)
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])) == nil)
        var wrongTag = der
        wrongTag[wrongTag.startIndex] = 0x31
        #expect(TLSPublicKeyPins.publicKeyDigest(ofCertificate: wrongTag) == nil)
        let pins = try TLSPublicKeyPins(["localhost": [TLSTestCertificates.ecPin]])
        #expect(!pins.accepts(chain: [der.prefix(100)], for: "localhost"))
    }

    @Test("a pinned host is accepted only when some certificate of the chain has one of its pins")
    func pinnedHostNeedsAMatch() throws {
        let rsa = TLSTestCertificates.der(TLSTestCertificates.rsaPEM)
        let ec = TLSTestCertificates.der(TLSTestCertificates.ecPEM)
        let pins = try TLSPublicKeyPins(["api.example.com": [TLSTestCertificates.ecPin]])
        #expect(pins.accepts(chain: [ec], for: "api.example.com"))
        #expect(pins.accepts(chain: [rsa, ec], for: "api.example.com"))  // an intermediate or root may match
        #expect(!pins.accepts(chain: [rsa], for: "api.example.com"))
        #expect(!pins.accepts(chain: [], for: "api.example.com"))
        #expect(pins.accepts(chain: [rsa], for: "other.example.com"))  // hosts not listed are not pinned
    }

    @Test("host names match ignoring case and a trailing dot, on either side, and a sha256/ prefix is accepted")
    func hostAndPrefixRules() throws {
        let rsa = TLSTestCertificates.der(TLSTestCertificates.rsaPEM)
        let ec = TLSTestCertificates.der(TLSTestCertificates.ecPEM)
        let pins = try TLSPublicKeyPins(["API.Example.com.": ["sha256/" + TLSTestCertificates.ecPin]])
        for host in ["api.example.com", "API.EXAMPLE.COM", "api.example.com."] {
            #expect(pins.accepts(chain: [ec], for: host))
            #expect(!pins.accepts(chain: [rsa], for: host))
        }
    }

    @Test("a host listed with no pins is not pinned, unless another spelling of it has pins")
    func emptyListIsNotPinned() throws {
        let rsa = TLSTestCertificates.der(TLSTestCertificates.rsaPEM)
        let empty = try TLSPublicKeyPins(["host.test": []])
        #expect(empty.isEmpty)
        #expect(empty.accepts(chain: [rsa], for: "host.test"))
        let merged = try TLSPublicKeyPins(["host.test": [], "HOST.test": [TLSTestCertificates.ecPin]])
        #expect(!merged.accepts(chain: [rsa], for: "host.test"))
    }

    @Test("entries for the same host in different spellings merge their pins")
    func spellingsMerge() throws {
        let rsa = TLSTestCertificates.der(TLSTestCertificates.rsaPEM)
        let ec = TLSTestCertificates.der(TLSTestCertificates.ecPEM)
        let v1 = TLSTestCertificates.der(TLSTestCertificates.v1PEM)
        let pins = try TLSPublicKeyPins([
            "host.test": [TLSTestCertificates.ecPin], "HOST.test.": [TLSTestCertificates.rsaPin],
        ])
        #expect(pins.accepts(chain: [ec], for: "host.test"))
        #expect(pins.accepts(chain: [rsa], for: "host.test"))
        #expect(!pins.accepts(chain: [v1], for: "host.test"))
    }

    @Test(
        "a pin that is not a base64 SHA-256 digest is a configuration error",
        arguments: [
            "not base64!", "AAAA", "sha1/" + TLSTestCertificates.ecPin, String(TLSTestCertificates.ecPin.dropLast(4)),
        ])
    func malformedPins(pin: String) {
        let error = #expect(throws: TLSError.self) { try TLSPublicKeyPins(["host.test": [pin]]) }
        #expect(error?.code == .configuration)
        #expect(error?.reason.contains(pin) == true)
    }

    @Test("PEM text yields the DER of each certificate block in order, skipping keys")
    func pemBlocks() {
        let pem = Data(
            (TLSTestCertificates.ecKeyPEM + "\n" + TLSTestCertificates.rsaPEM + "\r\n" + TLSTestCertificates.ecPEM)
                .utf8)
        let blocks = PEMCertificates.derBlocks(in: pem)
        #expect(
            blocks == [
                TLSTestCertificates.der(TLSTestCertificates.rsaPEM), TLSTestCertificates.der(TLSTestCertificates.ecPEM),
            ])
        #expect(PEMCertificates.derBlocks(in: Data(TLSTestCertificates.ecKeyPEM.utf8)).isEmpty)
    }
}
