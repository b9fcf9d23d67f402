import Foundation

extension BothamAPIClient {
    /// The pages of a paged endpoint, read one request at a time while the consumer asks for them (see
    /// ``BothamAPIClient/pages(of:maxPages:followingLinksToOtherOrigins:)``), or their ``items``.
    ///
    /// Each page is a normal call of the client: every interceptor, the retry loop, the cache and the validation
    /// apply. A page is requested only when `next()` is called: a consumer that stops reading (or `break`s) sends no
    /// further request, and a cancelled task sends none and throws ``APIClientError/cancelled``. A failed page ends
    /// the sequence with its error, after the pages before it; after an error or the last page `next()` returns
    /// `nil`. Every iterator starts over from the first page.
    public struct Paged<Element: Sendable>: AsyncSequence, Sendable {
        let start: @Sendable () -> AsyncIterator

        /// Starts reading from the first page.
        public func makeAsyncIterator() -> AsyncIterator {
            start()
        }

        /// Reads values one after another.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let step: () async throws(APIClientError) -> Element?

            /// The next value, or `nil` after the last page (and after an error has been thrown).
            public mutating func next() async throws(APIClientError) -> Element? {
                try await step()
            }
        }
    }

    /// The pages of `endpoint` and of the pages its responses link to with `rel="next"` (RFC 8288, the `Link`
    /// paging of GitHub, GitLab and many REST APIs):
    ///
    /// ```swift
    /// for try await page in apiClient.pages(of: Endpoint<[Issue]>(.get, "/repos/o/r/issues", parameters: ["per_page": 100])) {
    ///     print(page.count)
    /// }
    /// ```
    ///
    /// A next page is a `GET` of the link's URL with `endpoint`'s header fields, timeout, validation and decoding
    /// (the link carries the query). Reading ends after the page without a `next` link, after `maxPages` pages, or
    /// before a `next` link to a URL already read (a server that loops). A `next` link to another origin (scheme,
    /// host or port) than the page's request ends reading with ``APIClientError/invalidRequest(reason:)`` after that
    /// page, so the credentials the client's interceptors add go nowhere else, unless `followingLinksToOtherOrigins`.
    public func pages<Page: Sendable>(
        of endpoint: Endpoint<Page>,
        maxPages: Int = .max,
        followingLinksToOtherOrigins: Bool = false
    ) -> Paged<Page> {
        Paged {
            var read: Set<URL> = []
            return Paged.AsyncIterator(
                walk: PageWalk(client: self, first: endpoint, maxPages: maxPages) {
                    (_, response) throws(APIClientError) -> Endpoint<Page>? in
                    let requested = response.request.url
                    for url in [requested, response.url] { if let url { read.insert(url) } }
                    guard let next = response.link(rel: "next")?.url, !read.contains(next) else { return nil }
                    if !followingLinksToOtherOrigins, let requested, Origin(next) != Origin(requested) {
                        throw .invalidRequest(
                            reason: "the next page's link \(DebugText.quoted(next.absoluteString)) is on another "
                                + "origin than \(DebugText.quoted(requested.absoluteString)); pass "
                                + "followingLinksToOtherOrigins: true to follow it")
                    }
                    var following = endpoint
                    following.method = .get
                    following.path = next.absoluteString
                    following.parameters = nil
                    following.body = nil
                    return following
                })
        }
    }

    /// The pages of `endpoint` and of the endpoints `next` makes from each page and its response (a cursor or a
    /// continuation token in the body or a header field), until `next` returns `nil` or `maxPages` pages:
    ///
    /// ```swift
    /// let pages = apiClient.pages(of: EventsAPI.list(cursor: nil)) { page, _ in
    ///     page.nextCursor.map { EventsAPI.list(cursor: $0) }
    /// }
    /// ```
    ///
    /// `next` runs when the consumer asks for the page after `page`, never sooner.
    public func pages<Page: Sendable>(
        of endpoint: Endpoint<Page>,
        maxPages: Int = .max,
        next: @escaping @Sendable (Page, HTTPResponse) -> Endpoint<Page>?
    ) -> Paged<Page> {
        Paged {
            Paged.AsyncIterator(
                walk: PageWalk(client: self, first: endpoint, maxPages: maxPages) {
                    (page, response) throws(APIClientError) -> Endpoint<Page>? in next(page, response)
                })
        }
    }
}

extension BothamAPIClient.Paged where Element: Sequence, Element.Element: Sendable {
    /// The elements of every page, in order, each page requested when the elements before it have been read:
    /// `for try await issue in apiClient.pages(of: issues).items { … }`.
    public var items: BothamAPIClient.Paged<Element.Element> {
        let pages = self
        return BothamAPIClient.Paged<Element.Element> {
            var iterator = pages.makeAsyncIterator()
            var buffer: Element.Iterator?
            return BothamAPIClient.Paged<Element.Element>.AsyncIterator {
                () async throws(APIClientError) -> Element.Element? in
                while true {
                    if let item = buffer?.next() { return item }
                    guard let page = try await iterator.next() else { return nil }
                    buffer = page.makeIterator()
                }
            }
        }
    }
}

extension BothamAPIClient.Paged.AsyncIterator {
    /// An iterator handing out the pages of `walk`.
    init(walk: PageWalk<Element>) {
        step = { () async throws(APIClientError) -> Element? in try await walk.next() }
    }
}

/// One reading of a paged endpoint: the page to request, and how the next one follows from a page.
final class PageWalk<Page: Sendable> {
    enum State {
        case first(Endpoint<Page>)
        case after(Page, HTTPResponse)
        case done
    }

    let client: BothamAPIClient
    var state: State
    var remaining: Int
    let following: (Page, HTTPResponse) throws(APIClientError) -> Endpoint<Page>?

    init(
        client: BothamAPIClient,
        first: Endpoint<Page>,
        maxPages: Int,
        following: @escaping (Page, HTTPResponse) throws(APIClientError) -> Endpoint<Page>?
    ) {
        self.client = client
        self.state = .first(first)
        self.remaining = maxPages
        self.following = following
    }

    /// The next page, or `nil` at the end; after an error, `nil`.
    func next() async throws(APIClientError) -> Page? {
        let endpoint: Endpoint<Page>
        switch state {
        case .done:
            return nil
        case .first(let first):
            endpoint = first
        case .after(let page, let response):
            state = .done
            guard remaining > 0, let next = try following(page, response) else { return nil }
            endpoint = next
        }
        state = .done
        guard remaining > 0 else { return nil }
        guard !Task.isCancelled else { throw .cancelled }
        let request = try endpoint.request(for: client)
        let response = try await client.response(for: request)
        let page = try endpoint.decoding.decode(response)
        remaining -= 1
        state = .after(page, response)
        return page
    }
}
