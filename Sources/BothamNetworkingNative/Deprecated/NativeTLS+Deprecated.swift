// Spellings of the release before both transports shared one TLS configuration (#36). Each is the type it became.
import BothamNetworking

/// How ``NativeHTTPClient`` verifies servers over HTTPS.
@available(*, deprecated, renamed: "TLSConfiguration")
public typealias NativeTLSConfiguration = TLSConfiguration

/// A TLS failure in ``NativeHTTPClient``.
@available(*, deprecated, renamed: "TLSError")
public typealias NativeTLSError = TLSError
