import BothamNetworkingTesting
import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

@Suite("Pages follow next links or a cursor, one normal call per page, only while read", .timeLimit(.minutes(1)))
struct PagesTests {
    static let base = "https://api.example.com"

    func client(_ stub: StubHTTPClient) -> BothamAPIClient {
        BothamAPIClient(
            baseEndpoint: Self.base, httpClient: stub,
            configuration: .init(maxRetries: 0, clock: VirtualClock(sleeping: .advancesClock)))
    }

    /// Stubs `/items?page=N` for N in 1...count, each page `[N]` linking to the next with `rel="next"`.
    func stubLinkedPages(
        _ stub: StubHTTPClient, count: Int, nextOf: (Int) -> String? = { "\(PagesTests.base)/items?page=\($0 + 1)" }
    ) {
        for page in 1...count {
            var headers: HTTPHeaders = [:]
            if page < count, let next = nextOf(page) {
                headers.add("Link", "<\(next)>; rel=\"next\", <\(Self.base)/items?page=\(count)>; rel=\"last\"")
            }
            stub.stub(.query("page", "\(page)"), with: .json([.int(page)], headers: headers))
        }
    }

    let firstPage = Endpoint<[Int]>(.get, "/items", parameters: ["page": .int(1)])

    func paths(_ stub: StubHTTPClient) -> [String] {
        stub.receivedRequests.compactMap { $0.url?.query }
    }

    @Test("pages follow rel=next links until a page has none, each a GET of the link")
    func followsNextLinks() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 3)
        var pages: [[Int]] = []
        for try await page in client(stub).pages(of: firstPage) { pages.append(page) }
        #expect(pages == [[1], [2], [3]])
        #expect(paths(stub) == ["page=1", "page=2", "page=3"])
    }

    @Test("items flattens the pages in order, through empty pages")
    func items() async throws {
        let stub = StubHTTPClient()
        let next: (Int) -> HTTPHeaders = { ["Link": "<\(Self.base)/items?page=\($0)>; rel=next"] }
        stub.stub(.query("page", "1"), with: .json([1, 2], headers: next(2)))
        stub.stub(.query("page", "2"), with: .json([], headers: next(3)))
        stub.stub(.query("page", "3"), with: .json([3]))
        var items: [Int] = []
        for try await item in client(stub).pages(of: firstPage).items { items.append(item) }
        #expect(items == [1, 2, 3])
    }

    @Test("maxPages stops reading after that many pages, without requesting the next")
    func pageLimit() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 5)
        var pages: [[Int]] = []
        for try await page in client(stub).pages(of: firstPage, maxPages: 2) { pages.append(page) }
        #expect(pages == [[1], [2]])
        #expect(paths(stub) == ["page=1", "page=2"])
    }

    @Test("a consumer that stops reading sends no further request")
    func consumerStops() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 5)
        for try await page in client(stub).pages(of: firstPage) where page == [2] { break }
        #expect(paths(stub) == ["page=1", "page=2"])
    }

    @Test("a cancelled task requests no further page and throws cancelled")
    func cancellation() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 5)
        let apiClient = client(stub)
        let endpoint = firstPage
        let task = Task { () async throws(APIClientError) -> [[Int]] in
            var pages: [[Int]] = []
            for try await page in apiClient.pages(of: endpoint) {
                pages.append(page)
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return pages
        }
        let result = await task.result
        guard case .failure(let error) = result, case .cancelled? = error as? APIClientError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(paths(stub) == ["page=1"])
    }

    @Test("a next link to a URL already read ends the pages (loop guard)")
    func loopGuard() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 3) { $0 == 2 ? "\(Self.base)/items?page=1" : "\(Self.base)/items?page=\($0 + 1)" }
        var pages: [[Int]] = []
        for try await page in client(stub).pages(of: firstPage, maxPages: 10) { pages.append(page) }
        #expect(pages == [[1], [2]])
        #expect(paths(stub) == ["page=1", "page=2"])
    }

    @Test("a next link to another origin is refused after its page, unless allowed")
    func crossOrigin() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 2) { _ in "https://elsewhere.example/items?page=2" }
        var pages: [[Int]] = []
        do {
            for try await page in client(stub).pages(of: firstPage) { pages.append(page) }
            Issue.record("expected invalidRequest")
        } catch {
            guard case .invalidRequest(let reason) = error else {
                Issue.record("expected invalidRequest, got \(error)")
                return
            }
            #expect(reason.contains("elsewhere.example"))
        }
        #expect(pages == [[1]])
        #expect(stub.receivedRequests.count == 1)

        var allowed: [[Int]] = []
        for try await page in client(stub).pages(of: firstPage, followingLinksToOtherOrigins: true) {
            allowed.append(page)
        }
        #expect(allowed == [[1], [2]])
        #expect(stub.receivedRequests.last?.url?.host == "elsewhere.example")
    }

    @Test("the cursor form requests the endpoints next makes from each page, until it returns nil")
    func cursor() async throws {
        let stub = StubHTTPClient()
        stub.stub(with: .json(["items": [1], "next": "b"]))
        stub.stub(.query("cursor", "b"), with: .json(["items": [2], "next": "c"]))
        stub.stub(.query("cursor", "c"), with: .json(["items": [3]]))
        struct Page: Decodable, Sendable {
            let items: [Int]
            let next: String?
        }
        @Sendable func list(cursor: String?) -> Endpoint<Page> {
            Endpoint(.get, "/events", parameters: cursor.map { ["cursor": .string($0)] })
        }
        var items: [[Int]] = []
        for try await page in client(stub).pages(
            of: list(cursor: nil), next: { page, _ in page.next.map { list(cursor: $0) } })
        {
            items.append(page.items)
        }
        #expect(items == [[1], [2], [3]])
        #expect(paths(stub) == ["cursor=b", "cursor=c"])
        #expect(stub.receivedRequests.count == 3)
    }

    @Test("every page passes through the client's interceptors")
    func interceptorsSeeEveryPage() async throws {
        struct Tagger: BothamRequestInterceptor {
            let seen: Recorder<String>
            func intercept(request: HTTPRequest) async throws -> HTTPRequest {
                seen.append(request.url?.query ?? "")
                return request.withHeader("Authorization", "Bearer t")
            }
        }
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 3)
        let seen = Recorder<String>()
        let apiClient = client(stub)
        apiClient.requestInterceptors.append(Tagger(seen: seen))
        var count = 0
        for try await _ in apiClient.pages(of: firstPage) { count += 1 }
        #expect(count == 3)
        #expect(seen.values == ["page=1", "page=2", "page=3"])
        #expect(stub.receivedRequests.allSatisfy { $0.headers["Authorization"] == "Bearer t" })
    }

    @Test("a failed page ends the pages with its error, after the pages before it")
    func failedPage() async throws {
        let stub = StubHTTPClient()
        stubLinkedPages(stub, count: 3)
        stub.stub(.query("page", "2"), with: .text("no", statusCode: 500))
        var pages: [[Int]] = []
        var iterator = client(stub).pages(of: firstPage).makeAsyncIterator()
        do {
            while let page = try await iterator.next() { pages.append(page) }
            Issue.record("expected an error")
        } catch {
            guard case .httpResponseError(let response) = error else {
                Issue.record("expected httpResponseError, got \(error)")
                return
            }
            #expect(response.statusCode == 500)
        }
        #expect(pages == [[1]])
        #expect(try await iterator.next() == nil)
    }
}
