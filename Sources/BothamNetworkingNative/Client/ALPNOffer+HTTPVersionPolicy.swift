extension ALPNOffer {
    /// The offer for a client's ``NativeHTTPClient/HTTPVersionPolicy``.
    init(_ policy: NativeHTTPClient.HTTPVersionPolicy) {
        switch (policy.offersHTTP2, policy.offersHTTP1) {
        case (true, true): self = .http2OrHTTP1
        case (true, false): self = .http2
        default: self = .http1
        }
    }
}
