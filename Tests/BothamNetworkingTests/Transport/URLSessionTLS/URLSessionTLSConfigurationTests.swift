import Foundation
import Testing

@testable import BothamNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `URLSessionHTTPClient(configuration:tls:sessionConfiguration:)` accepts and refuses when it is created.
@Suite("URLSessionHTTPClient's TLS configuration is checked when the client is created", .timeLimit(.minutes(1)))
struct URLSessionTLSConfigurationTests {
    private static let missingFile = "/nonexistent/botham-tls-test/missing.pem"

    private static func creationError(_ tls: TLSConfiguration) -> TLSError? {
        #expect(throws: TLSError.self) { _ = try URLSessionHTTPClient(tls: tls) }
    }

    /// A file holding `contents` in a fresh temporary folder, removed by `body`'s end.
    private static func withFile<T>(_ contents: String, _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("botham-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file.pem")
        try Data(contents.utf8).write(to: file)
        return try body(file.path)
    }

    @Test("the default configuration is accepted")
    func defaultAccepted() throws {
        _ = try URLSessionHTTPClient(tls: TLSConfiguration())
        _ = try URLSessionHTTPClient(configuration: .init(redirectPolicy: .doNotFollow), tls: TLSConfiguration())
    }

    @Test("a host listed with no pins is not pinned, as on NativeHTTPClient, and is accepted everywhere")
    func emptyPinListAccepted() throws {
        _ = try URLSessionHTTPClient(tls: TLSConfiguration(pinnedPublicKeys: ["localhost": []]))
    }

    @Test("a malformed pin is a configuration error, whatever the platform")
    func malformedPin() {
        let error = Self.creationError(TLSConfiguration(pinnedPublicKeys: ["host.test": ["sha256/not-a-digest"]]))
        #expect(error?.code == .configuration)
    }

    @Test("an unreadable trust roots file, or PEM without a certificate, is a configuration error")
    func unreadableRoots() throws {
        let missing = Self.creationError(TLSConfiguration(trustRoots: .pemFile(Self.missingFile)))
        #expect(missing?.code == .configuration)
        #expect(missing?.reason.contains(Self.missingFile) == true)
        let noCertificate = Self.creationError(TLSConfiguration(trustRoots: .pem(Data("not PEM".utf8))))
        #expect(noCertificate?.code == .configuration)
        let onlyAKey = try Self.withFile(TLSTestCertificates.ecKeyPEM) { path in
            Self.creationError(TLSConfiguration(trustRoots: .pemFile(path)))
        }
        #expect(onlyAKey?.code == .configuration)
    }

    @Test("unreadable identity files, PEM without a certificate or key, and an empty archive are configuration errors")
    func unreadableIdentities() throws {
        let identities: [TLSConfiguration.ClientIdentity] = [
            .pkcs12File(Self.missingFile, password: "secret"),
            .pkcs12(Data(), password: "secret"),
            .pemFiles(certificateChain: Self.missingFile, privateKey: Self.missingFile),
            .pem(certificateChain: Data("no certificate".utf8), privateKey: Data(TLSTestCertificates.ecKeyPEM.utf8)),
            .pem(certificateChain: Data(TLSTestCertificates.ecPEM.utf8), privateKey: Data("no key".utf8)),
        ]
        for identity in identities {
            #expect(Self.creationError(TLSConfiguration(clientIdentity: identity))?.code == .configuration)
            let byHost = TLSConfiguration(clientIdentities: ["host.test": identity])
            #expect(Self.creationError(byHost)?.code == .configuration)
        }
        let keyFileMissing = try Self.withFile(TLSTestCertificates.ecPEM) { path in
            Self.creationError(
                TLSConfiguration(clientIdentity: .pemFiles(certificateChain: path, privateKey: Self.missingFile)))
        }
        #expect(keyFileMissing?.code == .configuration)
        #expect(keyFileMissing?.reason.contains(Self.missingFile) == true)
    }

    @Test("a task ended after the transport rejected the server fails with secureConnectionFailed and the TLSError")
    func rejectedServerMapping() {
        let rejection = TLSError(code: .pinMismatch, reason: "no pinned key")
        let error = URLErrorMapping.apiClientError(for: URLError(.cancelled), tlsFailure: rejection)
        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(error)")
            return
        }
        #expect(failure.kind == .secureConnectionFailed)
        #expect(failure.underlying as? TLSError == rejection)
        guard case .cancelled = URLErrorMapping.apiClientError(for: URLError(.cancelled)) else {
            Issue.record("without a rejection, a cancelled task is a cancellation")
            return
        }
    }

    @Test(
        "URLSession's client-certificate failures are secureConnectionFailed with a clientCertificateRejected TLSError",
        arguments: [URLError.Code.clientCertificateRequired, .clientCertificateRejected])
    func clientCertificateMapping(code: URLError.Code) {
        let error = URLErrorMapping.apiClientError(for: URLError(code))
        guard case .networkError(let failure) = error else {
            Issue.record("expected a network error, got \(error)")
            return
        }
        #expect(failure.kind == .secureConnectionFailed)
        let tlsError = failure.underlying as? TLSError
        #expect(tlsError?.code == .clientCertificateRejected)
        #expect(tlsError?.reason.contains("clientIdentity") == true, "\(String(describing: tlsError))")
    }

    @Test("turning session resumption off is refused as unsupported, naming NativeHTTPClient")
    func resumptionOffUnsupported() {
        let error = Self.creationError(TLSConfiguration(sessionResumption: false))
        #expect(error?.code == .unsupported)
        #expect(error?.reason.contains("NativeHTTPClient") == true)
    }

    #if canImport(FoundationNetworking)
        @Test(
            "on Linux custom roots, pins and client identities are refused as unsupported, naming NativeHTTPClient",
            arguments: [
                TLSConfiguration(trustRoots: .pem(Data(TLSTestCertificates.ecPEM.utf8))),
                TLSConfiguration(pinnedPublicKeys: ["localhost": [TLSTestCertificates.ecPin]]),
                TLSConfiguration(clientIdentity: .pkcs12(Data([0x30, 0x00]), password: "secret")),
                TLSConfiguration(
                    clientIdentities: [
                        "localhost": .pem(
                            certificateChain: Data(TLSTestCertificates.ecPEM.utf8),
                            privateKey: Data(TLSTestCertificates.ecKeyPEM.utf8))
                    ]),
            ])
        func linuxRefusesWhatItCannotHonour(tls: TLSConfiguration) {
            let error = Self.creationError(tls)
            #expect(error?.code == .unsupported)
            #expect(error?.reason.contains("NativeHTTPClient") == true)
            #expect(error?.reason.contains("Linux") == true)
        }

        @Test("on Linux readable root and identity files are refused as unsupported once they are read")
        func linuxRefusesReadableFiles() throws {
            try Self.withFile(TLSTestCertificates.ecPEM + "\n" + TLSTestCertificates.ecKeyPEM) { path in
                let roots = Self.creationError(TLSConfiguration(trustRoots: .pemFile(path)))
                #expect(roots?.code == .unsupported)
                let pem = Self.creationError(
                    TLSConfiguration(clientIdentity: .pemFiles(certificateChain: path, privateKey: path)))
                #expect(pem?.code == .unsupported)
                let archive = Self.creationError(TLSConfiguration(clientIdentity: .pkcs12File(path, password: "")))
                #expect(archive?.code == .unsupported)
            }
        }
    #endif
}
