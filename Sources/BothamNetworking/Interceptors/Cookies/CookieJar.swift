import Foundation

/// The cookies of an API client: what servers set with `Set-Cookie`, sent back with the requests they apply to.
///
/// A jar is shared by reference and safe to use from any task. It is also the interceptor that puts it in a client,
/// which behaves the same on every transport and platform:
///
/// ```swift
/// let jar = CookieJar()  // in memory; CookieJar(persistingTo: fileURL) keeps persistent cookies in a file
/// apiClient.interceptors.append(jar)
/// ```
///
/// - **Sending**: the jar's cookies for the request's URL go in one `Cookie` field. A `Cookie` field the request
///   already has (yours, or another interceptor's) is kept and comes first: `Cookie: yours; jar=cookies`; cookies
///   are not de-duplicated by name, so servers that read the first value of a name see yours.
/// - **Storing**: every `Set-Cookie` field of the response, each a separate value on both transports
///   (`URLSessionHTTPClient` splits the fields URLSession joins), as received from ``HTTPResponse/url``.
/// - **Redirects** are followed inside the transport, after every interceptor; the jar takes part in each hop:
///   every redirect's `Set-Cookie` fields are stored (a login's `302` that sets the session), and each hop carries
///   the jar's cookies for its own URL — a hop to another origin gets that origin's cookies, never the first
///   origin's, and a `Cookie` field of your own goes only to hops on the first request's origin. A `Cookie` field an
///   interceptor after the jar adds is not carried to the hops; redirects of requests those interceptors send inside
///   the call (a token refresh) are left to their transport.
/// - **URLSession's own cookie storage** is off in `URLSessionHTTPClient`'s default session configuration, so the
///   jar is the one source of `Cookie` and both transports behave alike. Do not give a session that has a jar a
///   cookie storage of its own: FoundationNetworking would replace the jar's `Cookie` field with the stored cookies.
///
/// The rules are RFC 6265bis's:
/// - `Max-Age` wins over `Expires`; both are capped at 400 days; a cookie without either is a session cookie.
/// - `Domain` (leading dot ignored) must domain-match the host, and may not be a public suffix
///   (the system's list, or a built-in one) unless it is the host itself, which then gets a host-only cookie; without `Domain` the
///   cookie is host-only. An IP address only ever matches itself.
/// - `Path` defaults to the directory of the request path; a `Secure` cookie can be set over `https` only, is sent
///   over `https` only, and a cookie from `http` cannot replace a secure one; `__Secure-` and `__Host-` names
///   are checked; name and value together hold at most 4096 bytes.
/// - A cookie with the name, domain and path of a stored one replaces it (keeping its creation time); one that has
///   expired deletes it. Creation times are unique within a jar (a cookie stored in the same instant as another
///   counts as a microsecond later), so the order of cookies never ties.
/// - At most 50 cookies per domain and 3000 in all: expired cookies go first, then
///   the oldest.
///
/// Expiry is measured on an ``HTTPClock``: in a call, on the call's clock (`HTTPCallContext.clock`); what you ask
/// of the jar directly (``allCookies``, loading its file) on the clock given to its initializer.
/// Give both the same clock in a test.
public final class CookieJar: Sendable {
    /// How many cookies a jar keeps.
    package struct Limits: Sendable, Hashable {
        /// The most cookies of one domain (RFC 6265bis asks for at least 50).
        package var perDomain: Int
        /// The most cookies in all (RFC 6265bis asks for at least 3000).
        package var total: Int

        /// Creates limits; by default 50 per domain and 3000 in all.
        package init(perDomain: Int = 50, total: Int = 3000) {
            self.perDomain = max(1, perDomain)
            self.total = max(1, total)
        }
    }

    /// The jar's limits.
    package let limits: Limits
    /// The public suffixes no `Domain` attribute may name.
    package let publicSuffixes: PublicSuffixList
    /// The file persistent cookies are kept in, or `nil` for a jar in memory.
    package let fileURL: URL?
    /// The clock expiry is measured with outside a call (the system's by default).
    package let clock: any HTTPClock
    private let state = Lock(State())
    /// Held while the file is written, not ``state``'s lock: reading and storing cookies never wait for the disk.
    private let file = Lock(FileState())

    private struct State {
        var store = CookieStore()
        /// The latest creation time given out: each new cookie gets a later one, so order never ties.
        var lastCreation = Date.distantPast
    }

    private struct FileState {
        /// The ``CookieStore/persistentGeneration`` of the snapshot last written: an older one is never written after
        /// it, whatever order concurrent saves reach the lock in.
        var writtenGeneration = Int.min
        var lastSaveError: String?
    }

    /// A jar in memory, keeping at most 50 cookies per domain and 3000 in all.
    ///
    /// - Parameter clock: The clock expiry is measured with outside a call (a test's virtual clock, or the system's).
    public convenience init(clock: any HTTPClock = .system) {
        self.init(limits: Limits(), publicSuffixes: .default, clock: clock)
    }

    /// A jar in memory with these limits, whose `Domain` attributes may not name `publicSuffixes`.
    package init(limits: Limits = Limits(), publicSuffixes: PublicSuffixList, clock: any HTTPClock = .system) {
        self.limits = limits
        self.publicSuffixes = publicSuffixes
        self.clock = clock
        fileURL = nil
    }

    /// A jar that keeps its persistent cookies in `fileURL` (JSON, written atomically after every change of them),
    /// and starts with the unexpired cookies the file holds. Session cookies are never written, and storing only
    /// session cookies does not write the file.
    ///
    /// - Throws: The error of reading or decoding the file, when it exists but cannot be read as a jar's file.
    public convenience init(persistingTo fileURL: URL, clock: any HTTPClock = .system) throws {
        try self.init(persistingTo: fileURL, limits: Limits(), publicSuffixes: .default, clock: clock)
    }

    /// A jar kept in `fileURL` whose `Domain` attributes may not name `publicSuffixes`.
    package init(
        persistingTo fileURL: URL,
        limits: Limits = Limits(),
        publicSuffixes: PublicSuffixList,
        clock: any HTTPClock = .system
    ) throws {
        self.limits = limits
        self.publicSuffixes = publicSuffixes
        self.clock = clock
        self.fileURL = fileURL
        let loaded = try CookieJarFile.load(from: fileURL)
        let date = clock.currentDate
        state.withLock { state in
            for cookie in loaded where cookie.isPersistent && !cookie.isExpired(at: date) {
                state.store.set(cookie)
                state.lastCreation = max(state.lastCreation, cookie.createdAt)
            }
        }
    }

    /// Every unexpired cookie, oldest first.
    public var allCookies: [Cookie] {
        let date = clock.currentDate
        return state.withLock { $0.store.cookies.values.filter { !$0.isExpired(at: date) } }
            .sorted { $0.createdAt < $1.createdAt }
    }

    /// Why the last write of the jar's file failed, or `nil` when it succeeded (or the jar is in memory).
    package var lastSaveError: String? { file.withLock { $0.lastSaveError } }

    /// Stores the cookies of `setCookieFields` (each one `Set-Cookie` field value) received from `url`; fields
    /// RFC 6265bis says to ignore are ignored.
    package func store(_ setCookieFields: [String], from url: URL) {
        store(setCookieFields, from: url, at: clock.currentDate)
    }

    /// ``store(_:from:)`` at `date` (the call's time).
    func store(_ setCookieFields: [String], from url: URL, at date: Date) {
        guard !setCookieFields.isEmpty, let target = CookieMatching.Target(url) else { return }
        let parsed = setCookieFields.compactMap {
            SetCookieParser.parse($0, from: target, now: date, publicSuffixes: publicSuffixes)
        }
        guard !parsed.isEmpty else { return }
        let snapshot = state.withLock { state in
            let generation = state.store.persistentGeneration
            for cookie in parsed {
                state.lastCreation = max(date, state.lastCreation.addingTimeInterval(0.000_001))
                let created = cookie.created(at: state.lastCreation)
                Self.insert(created, secureOrigin: target.isSecure, at: date, into: &state.store)
            }
            state.store.evict(afterStoringIn: Set(parsed.map(\.domain)), limits: limits, at: date)
            return persistentSnapshot(of: state.store, ifChangedSince: generation)
        }
        if let snapshot { save(snapshot) }
    }

    /// Stores the `Set-Cookie` fields of `response`, as received from its ``HTTPResponse/url`` (or its request's).
    package func storeCookies(from response: HTTPResponse) {
        storeCookies(from: response, at: clock.currentDate)
    }

    /// ``storeCookies(from:)`` at `date` (the call's time).
    func storeCookies(from response: HTTPResponse, at date: Date) {
        guard let url = response.url ?? response.request.url else { return }
        store(response.headers.values(for: .setCookie), from: url, at: date)
    }

    /// The cookies to send to `url`: unexpired, domain- and path-matching, secure ones over `https` only; longest
    /// path first, then oldest first (RFC 6265bis §5.8.3).
    package func cookies(for url: URL) -> [Cookie] {
        cookies(for: url, at: clock.currentDate)
    }

    /// ``cookies(for:)`` at `date` (the call's time).
    func cookies(for url: URL, at date: Date) -> [Cookie] {
        guard let target = CookieMatching.Target(url) else { return [] }
        return state.withLock { $0.store.cookies.values.filter { !$0.isExpired(at: date) && $0.matches(target) } }
            .sorted { lhs, rhs in
                lhs.path.count != rhs.path.count ? lhs.path.count > rhs.path.count : lhs.createdAt < rhs.createdAt
            }
    }

    /// The `Cookie` field value for `url` (`name=value; other=value`), or `nil` when no cookie applies.
    package func cookieHeader(for url: URL) -> String? {
        cookieHeader(for: url, at: clock.currentDate)
    }

    /// ``cookieHeader(for:)`` at `date` (the call's time).
    func cookieHeader(for url: URL, at date: Date) -> String? {
        let matching = self.cookies(for: url, at: date)
        guard !matching.isEmpty else { return nil }
        return matching.map { $0.name.isEmpty ? $0.value : "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Removes every cookie (and writes the empty jar to its file).
    public func removeAll() {
        let snapshot = state.withLock { state in
            let generation = state.store.persistentGeneration
            state.store.removeAll()
            return persistentSnapshot(of: state.store, ifChangedSince: generation)
        }
        if let snapshot { save(snapshot) }
    }

    /// RFC 6265bis §5.7 steps 21–23: keep a secure cookie from `http`, replace (keeping the creation time) or delete.
    private static func insert(_ cookie: Cookie, secureOrigin: Bool, at date: Date, into store: inout CookieStore) {
        if !cookie.isSecure && !secureOrigin {
            let shadowsSecure = store.cookies.values.contains { old in
                old.isSecure && old.name == cookie.name
                    && (CookieMatching.domain(cookie.domain, matches: old.domain)
                        || CookieMatching.domain(old.domain, matches: cookie.domain))
                    && CookieMatching.path(cookie.path, matches: old.path)
            }
            if shadowsSecure { return }
        }
        guard !cookie.isExpired(at: date) else {
            store.remove(cookie.key)
            return
        }
        store.set(store.cookies[cookie.key].map { cookie.created(at: $0.createdAt) } ?? cookie)
    }

    /// What a jar's file is to hold, when there is a file and the persistent cookies changed since `generation`.
    private func persistentSnapshot(
        of store: CookieStore, ifChangedSince generation: Int
    ) -> (cookies: [Cookie], generation: Int)? {
        guard fileURL != nil, store.persistentGeneration != generation else { return nil }
        return (store.persistentCookies, store.persistentGeneration)
    }

    /// Writes `snapshot` to ``fileURL`` unless a newer one is already written, remembering a failure.
    private func save(_ snapshot: (cookies: [Cookie], generation: Int)) {
        guard let fileURL else { return }
        file.withLock { file in
            guard snapshot.generation > file.writtenGeneration else { return }
            file.writtenGeneration = snapshot.generation
            do {
                try CookieJarFile.save(snapshot.cookies, to: fileURL)
                file.lastSaveError = nil
            } catch {
                file.lastSaveError = "\(error)"
            }
        }
    }
}
