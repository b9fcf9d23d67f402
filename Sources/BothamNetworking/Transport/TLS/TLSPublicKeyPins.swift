import Foundation

/// ``TLSConfiguration/pinnedPublicKeys`` validated: SHA-256 digests by canonical host name, and the check of a
/// verified chain against them. Platform-neutral, so the matching rules are the same everywhere.
package struct TLSPublicKeyPins: Sendable, Hashable {
    /// Pinned SPKI SHA-256 digests by canonical host name (``TLSConfiguration/canonicalHostName(_:)``).
    package let digests: [String: Set<Data>]

    /// No pins: every host accepted.
    package static let none = TLSPublicKeyPins(digests: [:])

    private init(digests: [String: Set<Data>]) {
        self.digests = digests
    }

    /// Validates `pins`: each value is a base64 SHA-256 digest, optionally prefixed with `sha256/`; anything else
    /// throws ``TLSError/Code/configuration``. Entries whose names differ only in case or a trailing dot merge; a
    /// host with no pins is not pinned (as on `NativeHTTPClient`).
    package init(_ pins: [String: [String]]) throws(TLSError) {
        var digests: [String: Set<Data>] = [:]
        for (host, values) in pins {
            var set = Set<Data>()
            for value in values {
                let base64 = value.hasPrefix("sha256/") ? String(value.dropFirst(7)) : value
                guard let digest = Data(base64Encoded: base64), digest.count == 32 else {
                    throw TLSError(code: .configuration, reason: "the pin \(value) is not a base64 SHA-256 digest")
                }
                set.insert(digest)
            }
            digests[TLSConfiguration.canonicalHostName(host), default: []].formUnion(set)
        }
        self.init(digests: digests.filter { !$0.value.isEmpty })
    }

    /// Whether no host is pinned.
    package var isEmpty: Bool { digests.isEmpty }

    /// Whether a verified chain (DER certificates) is acceptable for `host`: `true` when the host is not pinned,
    /// otherwise when some certificate's SPKI digest is one of its pins. A certificate that cannot be parsed
    /// matches nothing.
    package func accepts(chain: [Data], for host: String) -> Bool {
        guard let pinned = digests[TLSConfiguration.canonicalHostName(host)] else { return true }
        return chain.contains { certificate in
            Self.publicKeyDigest(ofCertificate: certificate).map(pinned.contains) ?? false
        }
    }

    /// The SHA-256 of a DER certificate's SubjectPublicKeyInfo (what a pin is), or `nil` when it is not a
    /// well-formed certificate.
    package static func publicKeyDigest(ofCertificate der: Data) -> Data? {
        DERCertificate.subjectPublicKeyInfo(of: [UInt8](der)).map { spki in
            var digest = SHA256Digest()
            digest.update(spki)
            return Data(digest.finalize())
        }
    }
}

/// The one path through X.509 DER that pinning needs: Certificate → TBSCertificate → SubjectPublicKeyInfo.
enum DERCertificate {
    /// The complete SubjectPublicKeyInfo element (tag and length included) of a DER certificate, or `nil`.
    static func subjectPublicKeyInfo(of der: [UInt8]) -> [UInt8]? {
        guard let certificate = element(in: der, at: 0), certificate.tag == 0x30,
            certificate.end == der.count,
            let tbs = element(in: der, at: certificate.contentStart), tbs.tag == 0x30
        else { return nil }
        var position = tbs.contentStart
        // version [0] EXPLICIT, optional.
        guard let first = element(in: der, at: position, limit: tbs.end) else { return nil }
        if first.tag == 0xA0 { position = first.end }
        // serialNumber, signature, issuer, validity, subject, then subjectPublicKeyInfo.
        let expected: [UInt8] = [0x02, 0x30, 0x30, 0x30, 0x30]
        for tag in expected {
            guard let field = element(in: der, at: position, limit: tbs.end), field.tag == tag else { return nil }
            position = field.end
        }
        guard let spki = element(in: der, at: position, limit: tbs.end), spki.tag == 0x30 else { return nil }
        return Array(der[position..<spki.end])
    }

    /// A DER element: its tag, where its content starts and where it ends.
    struct Element {
        let tag: UInt8
        let contentStart: Int
        let end: Int
    }

    /// The element starting at `offset`, which must end by `limit` (the buffer's end by default); single-byte tags
    /// and definite lengths of up to four bytes only.
    static func element(in der: [UInt8], at offset: Int, limit: Int? = nil) -> Element? {
        let limit = min(limit ?? der.count, der.count)
        guard offset >= 0, offset + 2 <= limit else { return nil }
        let tag = der[offset]
        guard tag & 0x1F != 0x1F else { return nil }
        var position = offset + 1
        let first = der[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), position + count <= limit else { return nil }
            for byte in der[position..<position + count] { length = length << 8 | Int(byte) }
            position += count
        }
        guard length <= limit - position else { return nil }
        return Element(tag: tag, contentStart: position, end: position + length)
    }
}

/// The certificates of PEM text: the DER of each `BEGIN CERTIFICATE` block, in order.
package enum PEMCertificates {
    /// The DER of every well-formed `CERTIFICATE` block in `pem`; other blocks (keys) are skipped.
    package static func derBlocks(in pem: Data) -> [Data] {
        let text = String(decoding: pem, as: UTF8.self)
        var blocks: [Data] = []
        var body: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----" {
                if let base64 = body, let der = Data(base64Encoded: base64), !der.isEmpty { blocks.append(der) }
                body = nil
            } else if body != nil {
                body? += line
            }
        }
        return blocks
    }
}
