// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    extension URLSessionConfiguration {
        /// An ephemeral configuration with at most `maxConnections` connections per host (`nil`: URLSession's own cap).
        static func ephemeral(maxConnections: Int?) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            if let maxConnections { configuration.httpMaximumConnectionsPerHost = maxConnections }
            return configuration
        }
    }

#endif
