extension HTTPRequest {
    /// Checks what goes on the wire as it is: the method is a token, and every header name is a token and every
    /// value free of CR, LF, NUL and other control characters.
    ///
    /// The client runs it while preparing a request, and every transport runs it again on what it is about to send
    /// (``HTTPInterceptor``s run after preparation): nothing an interceptor adds can inject a header or split a
    /// request.
    ///
    /// - Throws: ``APIClientError/invalidRequest(reason:)`` naming what is wrong; nothing has been sent.
    package func checkWireSyntax() throws(APIClientError) {
        guard method.isValidToken else {
            throw .invalidRequest(reason: "invalid method \(DebugText.quoted(method.rawValue))")
        }
        if let failure = headers.validationFailure {
            throw .invalidRequest(reason: failure)
        }
    }
}
