import Foundation

/// Adds the headers a well-behaved client sends, without replacing any the request already has:
///
/// - `User-Agent: <process> BothamNetworking/<version> (<OS> <version>)`
/// - `Accept-Language` from `Locale.preferredLanguages` with q-values: `en-GB, en;q=0.9, es;q=0.8`
/// - `Accept-Encoding: gzip, deflate` (URLSession decodes these on every platform)
///
/// ```swift
/// BothamAPIClient.globalRequestInterceptors.append(DefaultHeadersInterceptor())
/// ```
public struct DefaultHeadersInterceptor: BothamRequestInterceptor {
    /// The library's version, as it appears in `User-Agent`.
    package static let libraryVersion = "2.0.0"

    /// The headers added to each request that lacks them.
    package let headers: HTTPHeaders

    /// Creates the interceptor.
    ///
    /// - Parameters:
    ///   - userAgent: The `User-Agent`; by default
    ///     `<process> BothamNetworking/<version> (<OS> <major>.<minor>.<patch>)`.
    ///   - preferredLanguages: The languages for `Accept-Language`, most preferred first; by default
    ///     `Locale.preferredLanguages`. With none, `Accept-Language` is not sent.
    ///   - acceptEncoding: The `Accept-Encoding`; by default `gzip, deflate`.
    public init(
        userAgent: String = DefaultHeadersInterceptor.defaultUserAgent,
        preferredLanguages: [String] = Locale.preferredLanguages,
        acceptEncoding: String = "gzip, deflate"
    ) {
        var headers: HTTPHeaders = [.userAgent: Self.sanitized(userAgent)]
        if let language = Self.acceptLanguage(preferredLanguages) { headers[.acceptLanguage] = language }
        headers[.acceptEncoding] = acceptEncoding
        self.headers = headers
    }

    /// `<process> BothamNetworking/<version> (<OS> <major>.<minor>.<patch>)`.
    @usableFromInline
    package static var defaultUserAgent: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let os = "\(operatingSystemName) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        let process = ProcessInfo.processInfo.processName
        let product = process.isEmpty ? "" : sanitized(process) + " "
        return "\(product)BothamNetworking/\(libraryVersion) (\(os))"
    }

    /// An `Accept-Language` value for `languages` (at most 6), with q-values falling by 0.1: `nil` for none.
    package static func acceptLanguage(_ languages: [String]) -> String? {
        let usable = languages.map(sanitized).filter { !$0.isEmpty }.prefix(6)
        guard !usable.isEmpty else { return nil }
        return usable.enumerated().map { index, language in
            index == 0 ? language : "\(language);q=0.\(10 - index)"
        }.joined(separator: ", ")
    }

    /// Adds each default header the request does not have.
    public func intercept(request: HTTPRequest) async throws -> HTTPRequest {
        var request = request
        for field in headers where !request.headers.contains(field.name) {
            request = request.withHeader(field.name, field.value)
        }
        return request
    }

    private static var operatingSystemName: String {
        #if os(macOS)
            return "macOS"
        #elseif os(iOS)
            return "iOS"
        #elseif os(tvOS)
            return "tvOS"
        #elseif os(watchOS)
            return "watchOS"
        #elseif os(visionOS)
            return "visionOS"
        #elseif os(Linux)
            return "Linux"
        #elseif os(Windows)
            return "Windows"
        #else
            return "unknown OS"
        #endif
    }

    /// Printable ASCII only, so a process name or locale can never make an invalid header value.
    private static func sanitized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }))
            .trimmingCharacters(in: .whitespaces)
    }
}
