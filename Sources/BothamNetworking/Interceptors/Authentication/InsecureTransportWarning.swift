import Foundation

/// Warns, once per host per process, when Basic credentials would be sent over plain `http` to a host that is not
/// on the loopback interface.
enum InsecureTransportWarning {
    private static let warnedHosts = Lock<Set<String>>([])

    static func warnIfNeeded(for request: HTTPRequest, log: LoggingInterceptor.Sink) {
        guard let url = request.url, url.scheme?.lowercased() == "http", let host = url.host?.lowercased(),
            !isLoopback(host)
        else { return }
        let isFirst = warnedHosts.withLock { $0.insert(host).inserted }
        guard isFirst else { return }
        log(
            .warning,
            "BothamNetworking: Basic credentials are sent to \(DebugText.printable(host)) over plain http, "
                + "readable by anyone on the path; use https"
        )
    }

    /// `localhost`, `127.0.0.0/8` and `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare.hasPrefix("127.") || bare == "::1"
    }
}
