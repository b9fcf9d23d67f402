import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionHTTPClient: TransportHeaderDefaults {
    /// The fields URLSession would add to `request` (FoundationNetworking and libcurl on Linux, CFNetwork on Apple
    /// platforms), made explicit so that interceptors see them: the session configuration's `httpAdditionalHeaders`,
    /// then `Accept: */*`, `Accept-Encoding` (the codings the platform decodes by itself), `User-Agent`,
    /// `Accept-Language` (the current locale's language) and, for a `POST` with a body and no `Content-Type`,
    /// `Content-Type: application/x-www-form-urlencoded`. With every one of them in the request URLSession adds none;
    /// only `Host`, `Content-Length` and `Connection` are added while sending. When the session keeps cookies (its
    /// `httpShouldSetCookies` with a storage; off by default), the `Cookie` field its storage holds for the
    /// request's URL is one of them: URLSession would add it while sending.
    package func defaultHeaders(for request: HTTPRequest) -> HTTPHeaders {
        let cookie = storedCookie(for: request)
        let formBody = request.method == .post && request.body != nil
        guard cookie != nil || formBody else { return wireDefaults }
        var headers = wireDefaults
        if formBody { headers.add(.contentType, MediaType.form) }
        if let cookie { headers.add(.cookie, cookie) }
        return headers
    }

    /// The `Cookie` field the session's cookie storage holds for the request's URL, or `nil`.
    private func storedCookie(for request: HTTPRequest) -> String? {
        guard let cookieStorage, !request.headers.contains(.cookie), let url = try? request.resolvedURL(),
            let cookies = cookieStorage.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// The fields of every request: `sessionHeaders`, then `Accept`, `Accept-Encoding`, `User-Agent` and
    /// `Accept-Language`. Computed once per transport (reading the locale per request cost microseconds).
    static func wireDefaults(sessionHeaders: HTTPHeaders) -> HTTPHeaders {
        var headers = sessionHeaders
        headers.add(.accept, "*/*")
        headers.add(.acceptEncoding, acceptEncoding)
        headers.add(.userAgent, userAgent)
        if let language = Locale.current.language.languageCode?.identifier, !language.isEmpty {
            headers.add(.acceptLanguage, language)
        }
        return headers
    }

    /// The string fields of `configuration.httpAdditionalHeaders`, sorted by name (a dictionary has no order).
    static func headers(of configuration: URLSessionConfiguration) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let fields = (configuration.httpAdditionalHeaders ?? [:]).compactMap { name, value -> (String, String)? in
            guard let name = name as? String, let value = value as? String else { return nil }
            return (name, value)
        }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            headers.add(HTTPFieldName(name), value)
        }
        return headers
    }

    /// The codings URLSession decodes by itself: zlib's everywhere (libcurl on Linux may offer more, depending on
    /// how it was built), and Brotli on Apple platforms.
    #if canImport(FoundationNetworking)
        static let acceptEncoding = "gzip, deflate"
    #else
        static let acceptEncoding = "gzip, deflate, br"
    #endif

    /// `<process name> BothamNetworking`, the process name reduced to printable ASCII so it is a valid value.
    static let userAgent: String = {
        let process = ProcessInfo.processInfo.processName.unicodeScalars
            .filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        let name = String(String.UnicodeScalarView(process))
        return name.isEmpty ? "BothamNetworking" : "\(name) BothamNetworking"
    }()
}
