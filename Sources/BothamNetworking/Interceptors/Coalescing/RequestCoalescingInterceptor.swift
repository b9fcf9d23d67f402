/// Lets concurrent identical requests share one network exchange: the first one is sent, the others wait for its
/// answer, and every caller gets its own ``HTTPResponse``.
///
/// ```swift
/// let coalescer = RequestCoalescingInterceptor()
/// apiClient.interceptors.append(coalescer)
///
/// // Three parts of an app ask for the same feed at the same moment: the server sees one GET.
/// async let home = apiClient.GET("/feed")
/// async let badge = apiClient.GET("/feed")
/// async let widget = apiClient.GET("/feed")
/// _ = await (home, badge, widget)
/// ```
///
/// ## Which requests are coalesced
///
/// A request is coalesced when its method is one of `methods` (`GET` and `HEAD` by default; a method that is not
/// idempotent never is), it has no body, and its body goes to memory (a file destination or a streamed call is
/// always sent on its own: one file or one stream cannot be handed to several callers). Two such requests share an
/// exchange when they have the same method, the same resolved URL and the same values of the header fields that
/// matter:
///
/// - the credential fields (`Authorization`, `Proxy-Authorization`, `Cookie`), so calls of
///   different users never share an answer;
/// - the fields that change which answer the server gives whatever it says (`Range`,
///   `If-Range`, `If-None-Match`, `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`);
/// - the fields named by `Vary` in the last response seen for that method and URL (remembered for
///   `rememberedVaryTargets` of them, the oldest forgotten first); a `Vary: *` there means no request to it is
///   coalesced;
/// - the fields you name in `keyFields`.
///
/// Other fields (a trace id, `User-Agent`) do not keep requests apart, and the exchange carries the fields of the
/// request that started it. A caller that joined an exchange before its first response taught the interceptor the
/// `Vary` names, and whose request differs from the one sent in a field that response varies on (or any, for
/// `Vary: *`), is sent on its own instead of getting an answer that was not for it.
///
/// ## What each caller gets
///
/// - The call that started the exchange gets the response as the rest of the chain returned it. Every other caller
///   gets a copy with the same status, headers, body (in memory, shared, not copied) and ``HTTPResponse/url``,
///   whose ``HTTPResponse/request`` is its *own* request as it reached this interceptor: the request its call
///   made, not another call's.
/// - A failure of the exchange (a network error, a timeout) reaches every caller waiting for it.
/// - A caller whose task is cancelled gets ``APIClientError/cancelled`` at once and the others keep waiting; the
///   exchange itself is cancelled when its last caller leaves. A caller's `callTimeout` likewise ends only that
///   caller, with ``APIClientError/timeout``.
/// - An exchange leaves the table when it ends or when its last caller leaves.
///
/// ## Where to put it
///
/// The exchange runs through the chain of the call that started it: the interceptors inside this one, the
/// transport and that call's send budget, with that call's ``HTTPCallContext`` (as ``HTTPCallContext/current``
/// too). So:
///
/// - Interceptors *outside* it (added before it) run once per call: put logging, metrics and tracing there to see
///   every call, and a cache there so that only cache misses are coalesced (a fresh hit is answered before it).
///   Interceptors *inside* it and ``BothamAPIClient/networkInterceptors`` run once per exchange.
/// - Request interceptors run before the onion, once per call: requests that differ only by what they add (a
///   token) are coalesced only when the fields that matter agree.
/// - Retries: each caller's response interceptors and retrier decide for that caller. A retried attempt comes
///   through the interceptor again, so the retries of callers that got the same `503` share one new exchange when
///   they overlap; an exchange that has ended is never joined.
/// - ``HTTPInterceptor/callDidFinish(_:result:context:)`` hears every call once, each with its own result.
///
/// The DocC article <doc:Coalescing> has the whole story.
public struct RequestCoalescingInterceptor: HTTPInterceptor {
    /// The methods coalesced by default: `GET` and `HEAD`.
    @usableFromInline
    package static let defaultMethods: Set<HTTPMethod> = [.get, .head]
    /// The credential fields that always keep requests apart: `Authorization`, `Proxy-Authorization`, `Cookie`.
    package static let credentialFields: [HTTPFieldName] = [.authorization, .proxyAuthorization, .cookie]
    /// The conditional and range fields that always keep requests apart: `Range`, `If-Range`, `If-None-Match`,
    /// `If-Modified-Since`, `If-Match`, `If-Unmodified-Since`.
    package static let conditionalFields: [HTTPFieldName] = [
        "Range", "If-Range", .ifNoneMatch, "If-Modified-Since", "If-Match", "If-Unmodified-Since",
    ]

    /// The methods whose requests are coalesced (only the idempotent ones of those given to the initializer).
    package let methods: Set<HTTPMethod>
    /// Fields, besides the credential, conditional and `Vary`-named ones, whose values keep requests apart.
    package let keyFields: [HTTPFieldName]
    private let alwaysKeyed: Set<HTTPFieldName>
    /// The table of exchanges in flight; copies of the interceptor share it.
    private let exchanges: InFlightExchanges

    /// Creates a coalescer with a table of its own.
    ///
    /// - Parameters:
    ///   - methods: The methods to coalesce; methods that are not idempotent are dropped.
    ///   - keyFields: More fields whose values keep requests apart (for example `Accept`, or a tenant header).
    ///   - rememberedVaryTargets: For how many methods and URLs the `Vary` names of the last response are kept.
    public init(
        methods: Set<HTTPMethod> = defaultMethods, keyFields: [HTTPFieldName] = [], rememberedVaryTargets: Int = 256
    ) {
        self.methods = methods.filter(\.isIdempotent)
        self.keyFields = keyFields
        alwaysKeyed = Set(Self.credentialFields + Self.conditionalFields + keyFields)
        exchanges = InFlightExchanges(varyCapacity: rememberedVaryTargets)
    }

    /// How many exchanges are in flight now.
    package var inFlightExchangeCount: Int { exchanges.exchangeCount }

    /// How many calls are waiting for an exchange now, the ones that started them included.
    package var waitingCallCount: Int { exchanges.waiterCount }

    /// Sends `request` on, or waits for the identical exchange in flight and answers with a copy of its response.
    public func intercept(
        _ request: HTTPRequest, context: HTTPCallContext, next: HTTPInterceptorNext
    ) async throws -> HTTPResponse {
        // A WebSocket handshake opens a connection of its own: never shared.
        guard methods.contains(request.method), !WebSocketUpgrade.isRequested(by: request), let url = request.url else {
            return try await next(request)
        }
        let target = VaryMemory.Target(method: request.method.rawValue, url: url.absoluteString)
        let vary = exchanges.varyNames(for: target)
        guard request.body == nil, request.responseDestination == .memory, vary != .any else {
            return try await sendAlone(request, target: target, next: next)
        }
        var names = alwaysKeyed
        if case .fields(let varied) = vary { names.formUnion(varied) }
        let key = CoalescingKey(request, target: target, names: names)
        switch await exchanges.answer(for: request, key: key, next: next) {
        case nil:
            throw APIClientError.cancelled
        case .started(let result):
            return try result.get()
        case .joined(let result, let sent):
            let response = try result.get()
            guard response.bodyStream == nil, response.bodyFileURL == nil,
                VaryNames(of: response).map({ $0.match(request, sent) }) ?? true
            else {
                return try await sendAlone(request, target: target, next: next)
            }
            context[Joined.self] = true
            return HTTPResponse(
                statusCode: response.statusCode, headers: response.headers, body: response.body, request: request,
                url: response.url)
        }
    }

    /// Sends `request` through `next` by itself, remembering the `Vary` names of its response.
    private func sendAlone(
        _ request: HTTPRequest, target: VaryMemory.Target, next: HTTPInterceptorNext
    ) async throws(APIClientError) -> HTTPResponse {
        let response = try await next(request)
        exchanges.remember(response, for: target)
        return response
    }

    /// The per-call value that says whether an attempt of the call was answered by an exchange another call
    /// started (`context[RequestCoalescingInterceptor.Joined.self]`, readable by an observer or an outer
    /// interceptor); `false` for a call that sent its own.
    package enum Joined: HTTPCallValueKey {
        /// `false`: the call sent its own requests.
        package static let defaultValue = false
    }
}
