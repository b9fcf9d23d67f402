// Linux only: the benchmarks read /proc, use Glibc's socket API and epoll-backed transports, and measure this
// machine kind; on other platforms the executable only says so.
#if os(Linux)
    import BothamNetworking

    /// A request interceptor that sends the request on unchanged: its cost is the framework's, not the interceptor's.
    struct PassThroughRequestInterceptor: BothamRequestInterceptor {
        func intercept(request: HTTPRequest) async throws -> HTTPRequest {
            request
        }
    }

    /// A response interceptor that lets every response through unchanged.
    struct PassThroughResponseInterceptor: BothamResponseInterceptor {
        func intercept(response: HTTPResponse, for request: HTTPRequest) async throws -> ResponseInterceptorResult {
            .proceed(response)
        }
    }

    /// An onion interceptor that calls `next` once and returns its response.
    struct PassThroughOnionInterceptor: HTTPInterceptor {
        func intercept(_ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext) async throws
            -> HTTPResponse
        {
            try await next(request)
        }
    }

    /// Where one interceptor of the mix goes.
    enum InterceptorSlot: CaseIterable {
        case localRequest
        case globalResponse
        case localOnion
        case globalRequest
        case localResponse
        case globalOnion

        /// The slots of a mix of `count` interceptors: the six kinds in turn, so every count above 6 has all of them.
        static func mix(_ count: Int) -> [InterceptorSlot] {
            (0..<count).map { allCases[$0 % allCases.count] }
        }
    }

    extension BothamAPIClient {
        /// Installs `count` pass-through interceptors (local and global, request, response and onion) and returns the
        /// function that removes the global ones again.
        func installPassThroughInterceptors(_ count: Int) -> @Sendable () -> Void {
            var removals: [@Sendable () -> Void] = []
            for slot in InterceptorSlot.mix(count) {
                switch slot {
                case .localRequest: requestInterceptors.append(PassThroughRequestInterceptor())
                case .localResponse: responseInterceptors.append(PassThroughResponseInterceptor())
                case .localOnion: interceptors.append(PassThroughOnionInterceptor())
                case .globalRequest:
                    let registration = Self.globalRequestInterceptors.append(PassThroughRequestInterceptor())
                    removals.append { Self.globalRequestInterceptors.remove(registration) }
                case .globalResponse:
                    let registration = Self.globalResponseInterceptors.append(PassThroughResponseInterceptor())
                    removals.append { Self.globalResponseInterceptors.remove(registration) }
                case .globalOnion:
                    let registration = Self.globalInterceptors.append(PassThroughOnionInterceptor())
                    removals.append { Self.globalInterceptors.remove(registration) }
                }
            }
            let all = removals
            return { for remove in all { remove() } }
        }
    }

#endif
