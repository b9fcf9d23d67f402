import BothamNetworking
import BothamTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// Measures what FoundationNetworking (libcurl) lets a URLSession delegate do about TLS, against a local TLS
    /// server (Python's `ssl` module) with a self-signed certificate: these facts are why
    /// `URLSessionHTTPClient(tls:)` refuses custom roots, pins and client identities on Linux. (Measured once by
    /// hand as well, since it needs the environment changed: `SSL_CERT_FILE`, `CURL_CA_BUNDLE` and
    /// `URLSessionCertificateAuthorityInfoFile` naming the server's certificate change nothing; the last is read on
    /// Android only.)
    @Suite(
        "FoundationNetworking's TLS, measured: no server-trust or client-certificate challenge reaches the delegate",
        .timeLimit(.minutes(1)),
        .enabled(if: URLSessionTLSProbeServer.isAvailable, "needs python3 with its ssl module")
    )
    struct URLSessionTLSLinuxProbeTests {
        @Test("a server whose certificate the system does not trust fails the task, with no challenge delivered")
        func untrustedServerNoChallenge() async throws {
            let server = try await URLSessionTLSProbeServer.start(requireClientCertificate: false)
            defer { server.stop() }
            let outcome = try await ChallengeRecorder.load(URL(string: "https://localhost:\(server.port)/"))
            #expect(outcome.challenges.isEmpty)
            let error = try #require(outcome.error as? URLError)
            let message = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
            #expect(message.contains("SSL"), "libcurl's TLS failure: \(message)")
        }

        // libcurl checks the server's certificate before it could answer a certificate request, and no setting makes
        // it trusted: FoundationNetworking's source sets no client-certificate option on libcurl either.
        @Test("a server that requires a client certificate fails the task, with no challenge delivered")
        func clientCertificateRequiredNoChallenge() async throws {
            let server = try await URLSessionTLSProbeServer.start(requireClientCertificate: true)
            defer { server.stop() }
            let outcome = try await ChallengeRecorder.load(URL(string: "https://localhost:\(server.port)/"))
            #expect(outcome.challenges.isEmpty)
            #expect(outcome.error != nil)
        }

        @Test("the default TLS configuration verifies: a self-signed server fails with secureConnectionFailed")
        func defaultConfigurationVerifies() async throws {
            let server = try await URLSessionTLSProbeServer.start(requireClientCertificate: false)
            defer { server.stop() }
            let client = try URLSessionHTTPClient(tls: TLSConfiguration())
            let request = HTTPRequest(
                method: .get, baseEndpoint: "https://localhost:\(server.port)", timeout: .seconds(10))
            let error = await #expect(throws: APIClientError.self) { _ = try await client.send(request) }
            guard case .networkError(let failure) = error else {
                Issue.record("expected a network error, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .secureConnectionFailed)
        }
    }

    /// A plain URLSession (not the transport) whose delegate records every challenge it is given and rejects it.
    final class ChallengeRecorder: NSObject, URLSessionTaskDelegate, Sendable {
        struct Outcome: Sendable {
            var challenges: [String]
            var error: (any Error)?
        }

        private let state = Lock<(challenges: [String], done: CheckedContinuation<Outcome, Never>?)>(([], nil))

        /// Loads `url` once (10 s limit) and returns the challenges the delegate saw and the task's error.
        static func load(_ url: URL?) async throws -> Outcome {
            let url = try #require(url)
            let recorder = ChallengeRecorder()
            let session = URLSession(configuration: .ephemeral, delegate: recorder, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            var request = URLRequest(url: url)
            request.timeoutInterval = 10
            return await withCheckedContinuation { continuation in
                recorder.state.withLock { $0.done = continuation }
                session.dataTask(with: request).resume()
            }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            state.withLock { $0.challenges.append(challenge.protectionSpace.authenticationMethod) }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (challenges, done) = state.withLock { state in
                defer { state.done = nil }
                return (state.challenges, state.done)
            }
            done?.resume(returning: Outcome(challenges: challenges, error: error))
        }
    }
#endif
